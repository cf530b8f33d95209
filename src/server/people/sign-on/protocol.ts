import type { SignOnProtocolName, SignOnRefusal } from "../../../contract";

/** A provider as the protocols use it: its settings, and its secrets opened. */
export interface LoadedProvider {
  id: string;
  protocol: SignOnProtocolName;
  name: string;
  domains: string[];
  createsLearners: boolean;
  settings: Record<string, unknown>;
  secrets: Record<string, unknown> | null;
}

/** Who the provider says signed in, once the protocol verified its answer. */
export interface ExternalIdentity {
  /** The provider's stable id of the person (OIDC `sub`, SAML NameID). */
  subject: string;
  email?: string;
  name?: string;
  /** SAML's SessionIndex, for single logout. */
  sessionIndex?: string;
}

/**
 * What each protocol (oidc/, saml/) gives the sign-on feature. Its callback routes are its
 * own: they take the request (`signOn.takeRequest`), verify the provider's answer with the
 * protocol's library and hand the identity to `signOn.finish`.
 */
export interface SignOnProtocol {
  readonly protocol: SignOnProtocolName;
  /**
   * Checks an administrator's settings and completes them (OIDC: reads discovery; SAML:
   * parses or fetches the provider's metadata, makes the service provider's key pair and
   * certificate) before saving. Throws a 400 AppError with its own code when they cannot work.
   */
  prepare(input: {
    settings: unknown;
    secrets: unknown;
    previous?: LoadedProvider;
  }): Promise<{ settings: object; secrets: object | null }>;
  /** Where to send the browser to sign in, and what to keep until it comes back. */
  start(
    provider: LoadedProvider,
    state: string,
  ): Promise<{ redirectTo: string; kept: Record<string, string> }>;
  /** Where to send the browser after Credo's sign-out, when the provider offers single logout. */
  logoutUrl?(
    provider: LoadedProvider,
    session: { subject: string; sessionIndex?: string },
  ): Promise<string | undefined>;
}

/**
 * Thrown where a sign-on must stop: the callback's `signOn.complete` turns it into the
 * audited refusal and the redirect to the sign-in page. `detail` says which check failed,
 * for the audit trail only.
 */
export class SignOnRefused extends Error {
  constructor(
    readonly reason: SignOnRefusal,
    readonly detail?: string,
  ) {
    super(`sign-on refused: ${reason}${detail ? ` (${detail})` : ""}`);
  }
}

/** The addresses a provider is configured with, the same for every protocol's pages. */
export function signOnUrls(publicUrl: string, providerId: string) {
  const base = `${publicUrl}/api/sign-on/${encodeURIComponent(providerId)}`;
  return {
    oidcCallback: `${base}/oidc/callback`,
    samlMetadata: `${base}/saml/metadata`,
    /** The service provider's entity id is its metadata's address. */
    samlEntityId: `${base}/saml/metadata`,
    samlAcs: `${base}/saml/acs`,
    /** Where a provider sends the browser back after single logout. */
    afterLogout: `${publicUrl}/`,
  };
}

/** The sign-on request a protocol's answer comes back to (sign-on-requests.table.ts). */
export type { SignOnRequestRow } from "./sign-on-requests.table";
