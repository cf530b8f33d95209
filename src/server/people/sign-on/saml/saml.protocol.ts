import type { Database } from "../../../db/client";
import {
  type ExternalIdentity,
  type LoadedProvider,
  type SignOnProtocol,
  SignOnRefused,
  type SignOnRequestRow,
} from "../protocol";
import { IdpMetadataError, readIdpMetadata } from "./idp-metadata";
import {
  metadataInsecure,
  metadataInvalid,
  metadataRequired,
  metadataUnreachable,
  signingCertificateMissing,
} from "./saml.errors";
import { createSamlRepository } from "./saml.repository";
import {
  identityProvider,
  type SamlSecrets,
  type SamlSettings,
  samlEndpoints,
  serviceProvider,
} from "./saml-entities";
import { generateSamlKeyPair } from "./saml-keys";
import {
  createLoginRequest,
  SamlResponseInvalid,
  SamlSignInFailed,
  verifyLoginResponse,
} from "./saml-login";

export interface SamlDeps {
  db: Database;
  publicUrl: string;
  /** Outside production the metadata may come over http (a provider on this machine). */
  production: boolean;
  /** The sign-on clock; tests move it by hand. */
  now?: () => Date;
}

/** What an administrator enters for a SAML provider (the contract's samlProviderInputSchema). */
interface SamlInput {
  metadataXml?: string;
  metadataUrl?: string;
  emailAttribute: string;
  nameAttribute: string;
}

const METADATA_TIMEOUT_MS = 10_000;
const METADATA_MAX_BYTES = 1_000_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Sign-on through a SAML 2.0 identity provider: SP-initiated, redirect out, POST back. */
export function createSamlProtocol(deps: SamlDeps) {
  const repo = createSamlRepository(deps.db);
  const now = deps.now ?? (() => new Date());

  function entitiesOf(provider: LoadedProvider) {
    const settings = provider.settings as unknown as SamlSettings;
    const secrets = provider.secrets as unknown as SamlSecrets;
    const idp = identityProvider(settings.metadataXml);
    const sp = serviceProvider({
      publicUrl: deps.publicUrl,
      providerId: provider.id,
      settings,
      secrets,
      idp,
    });
    return { settings, sp, idp };
  }

  async function fetchMetadata(address: string): Promise<string> {
    if (deps.production && new URL(address).protocol !== "https:") throw metadataInsecure();
    let response: Response;
    try {
      response = await fetch(address, { signal: AbortSignal.timeout(METADATA_TIMEOUT_MS) });
    } catch (error) {
      throw metadataUnreachable(messageOf(error));
    }
    if (!response.ok) throw metadataUnreachable(`the address answered ${response.status}`);
    const text = await response.text();
    if (text.length > METADATA_MAX_BYTES) throw metadataInvalid("larger than 1 MB");
    return text;
  }

  const protocol = {
    protocol: "saml" as const,

    /**
     * Reads the provider's metadata (pasted, or from its address, read again at every save)
     * and gives the provider Credo's key pair: made once, kept when the settings change, so
     * the certificate the provider was given stays valid.
     */
    async prepare({ settings, previous }) {
      const input = settings as SamlInput;
      const metadataUrl = input.metadataUrl ?? null;
      const metadataXml = metadataUrl ? await fetchMetadata(metadataUrl) : input.metadataXml;
      if (!metadataXml) throw metadataRequired();
      let idpEntityId: string;
      try {
        idpEntityId = readIdpMetadata(metadataXml).entityId;
      } catch (error) {
        if (!(error instanceof IdpMetadataError)) throw error;
        if (error.problem === "no_signing_certificate") throw signingCertificateMissing();
        throw metadataInvalid(
          error.problem === "no_sign_in_address"
            ? "it lists no sign-in address (SingleSignOnService) for the HTTP-Redirect binding"
            : "it has no identity provider entity",
        );
      }
      const kept = previous?.protocol === "saml" ? previous : undefined;
      const keys =
        kept && typeof kept.settings.spCertificate === "string" && kept.secrets?.spPrivateKey
          ? {
              certificate: kept.settings.spCertificate,
              privateKey: String(kept.secrets.spPrivateKey),
            }
          : generateSamlKeyPair(`Credo ${new URL(deps.publicUrl).host}`);
      return {
        settings: {
          metadataXml,
          metadataUrl,
          emailAttribute: input.emailAttribute,
          nameAttribute: input.nameAttribute,
          idpEntityId,
          spCertificate: keys.certificate,
        } satisfies SamlSettings,
        secrets: { spPrivateKey: keys.privateKey } satisfies SamlSecrets,
      };
    },

    /** An AuthnRequest by the redirect binding; RelayState carries the state back. */
    async start(provider, state) {
      const { sp, idp } = entitiesOf(provider);
      const { redirectTo, requestId } = createLoginRequest(sp, idp, state);
      return { redirectTo, kept: { requestId } };
    },

    /** A LogoutRequest by the redirect binding, when the metadata lists single logout. */
    async logoutUrl(provider, session) {
      const { settings, sp, idp } = entitiesOf(provider);
      if (!readIdpMetadata(settings.metadataXml).logoutUrl) return undefined;
      const request = sp.createLogoutRequest(idp, "redirect", {
        logoutNameID: session.subject,
        ...(session.sessionIndex ? { sessionIndex: session.sessionIndex } : {}),
      });
      return request.context;
    },

    /**
     * The identity in a response posted to the assertion consumer service, once verified
     * against the request it answers; its assertion can sign in only once.
     */
    async verify(
      provider: LoadedProvider,
      requestRow: SignOnRequestRow,
      samlResponse: string,
    ): Promise<ExternalIdentity> {
      const { settings, sp } = entitiesOf(provider);
      const endpoints = samlEndpoints(deps.publicUrl, provider.id);
      const at = now();
      let verified: Awaited<ReturnType<typeof verifyLoginResponse>>;
      try {
        verified = await verifyLoginResponse({
          sp,
          idpMetadata: settings.metadataXml,
          emailAttribute: settings.emailAttribute,
          nameAttribute: settings.nameAttribute,
          entityId: endpoints.entityId,
          assertionConsumerService: endpoints.assertionConsumerService,
          samlResponse,
          requestId: String(requestRow.kept.requestId ?? ""),
          now: at,
        });
      } catch (error) {
        if (error instanceof SamlResponseInvalid)
          throw new SignOnRefused("response_invalid", error.detail);
        if (error instanceof SamlSignInFailed) throw new SignOnRefused("cancelled", error.detail);
        throw error;
      }
      const fresh = await repo.recordAssertion({
        providerId: provider.id,
        assertionId: verified.assertionId,
        expiresAt: verified.assertionExpiresAt,
        now: at,
      });
      if (!fresh)
        throw new SignOnRefused("replayed", `assertion ${verified.assertionId} was already used`);
      const { assertionId: _id, assertionExpiresAt: _expires, ...identity } = verified;
      return identity;
    },

    /** Credo's metadata for this provider, for its administrator to give the provider. */
    metadata(provider: LoadedProvider): string {
      return entitiesOf(provider).sp.getMetadata();
    },
  } satisfies SignOnProtocol & Record<string, unknown>;
  return protocol;
}

export type SamlProtocol = ReturnType<typeof createSamlProtocol>;
