import { identityProvider } from "./saml-entities";

/** What Credo needs from an identity provider's metadata. */
export interface IdpMetadataSummary {
  entityId: string;
  signInUrl: string;
  /** Where sign-out sends the browser, when the provider offers single logout. */
  logoutUrl: string | null;
}

/** Why an identity provider's metadata cannot be used. */
export type IdpMetadataProblem = "not_metadata" | "no_sign_in_address" | "no_signing_certificate";

export class IdpMetadataError extends Error {
  constructor(readonly problem: IdpMetadataProblem) {
    super(problem);
  }
}

/**
 * Reads an identity provider's metadata with samlify and checks it can sign learners in:
 * one entity, a sign-in address for the HTTP-Redirect binding (the one Credo sends requests
 * by) and at least one signing certificate (without one no answer could be verified).
 */
export function readIdpMetadata(xml: string): IdpMetadataSummary {
  let idp: ReturnType<typeof identityProvider>;
  try {
    idp = identityProvider(xml);
  } catch {
    throw new IdpMetadataError("not_metadata");
  }
  const entityId = text(idp.entityMeta.getEntityID());
  if (!entityId) throw new IdpMetadataError("not_metadata");
  const signInUrl = text(idp.entityMeta.getSingleSignOnService("redirect"));
  if (!signInUrl || !isWebAddress(signInUrl)) throw new IdpMetadataError("no_sign_in_address");
  const certificates = [idp.entityMeta.getX509Certificate("signing")].flat().filter((c) => text(c));
  if (certificates.length === 0) throw new IdpMetadataError("no_signing_certificate");
  const logoutUrl = text(idp.entityMeta.getSingleLogoutService("redirect"));
  return {
    entityId,
    signInUrl,
    logoutUrl: logoutUrl && isWebAddress(logoutUrl) ? logoutUrl : null,
  };
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function isWebAddress(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}
