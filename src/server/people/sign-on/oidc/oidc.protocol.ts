import * as client from "openid-client";
import {
  type ExternalIdentity,
  type LoadedProvider,
  type SignOnProtocol,
  SignOnRefused,
  type SignOnRequestRow,
  signOnUrls,
} from "../protocol";
import { clientSecretRequired, issuerInsecure, issuerUnreachable } from "./oidc.errors";

/** What an OpenID Connect provider keeps in the clear; `server` is its discovery document. */
interface OidcSettings {
  issuer: string;
  clientId: string;
  scopes: string;
  emailClaim: string;
  nameClaim: string;
  server: client.ServerMetadata;
}

export interface OidcDeps {
  publicUrl: string;
  /**
   * Outside production an http:// issuer is allowed (a provider on this machine while
   * developing and testing); in production every request to a provider goes over https.
   */
  production: boolean;
}

const DISCOVERY_TIMEOUT_SECONDS = 10;

const secretOf = (secrets: unknown) => {
  const value = (secrets as { clientSecret?: unknown } | null)?.clientSecret;
  return typeof value === "string" ? value : undefined;
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Why openid-client refused an answer: a provider that cannot be reached is unavailable;
 * anything else it checked (state, PKCE, signature, issuer, audience, expiry, nonce) makes
 * the answer invalid, and its code says which.
 */
function refusalOf(error: unknown): SignOnRefused {
  if (error instanceof client.AuthorizationResponseError) return providerAnswer(error);
  if (error instanceof TypeError)
    return new SignOnRefused("provider_unavailable", messageOf(error));
  // openid-client's error names the kind of failure; its cause, the check that failed.
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  const prefix = typeof code === "string" ? `${code}: ` : "";
  return new SignOnRefused(
    "response_invalid",
    `${prefix}${messageOf(cause instanceof Error ? cause : error)}`,
  );
}

/**
 * The provider answered with an error instead of a code (RFC 6749, 4.1.2.1): the person
 * cancelled or was refused there, the provider is down, or it found the request wrong.
 */
function providerAnswer(error: client.AuthorizationResponseError): SignOnRefused {
  const detail = `${error.error}${error.error_description ? `: ${error.error_description}` : ""}`;
  if (error.error === "access_denied") return new SignOnRefused("cancelled", detail);
  if (error.error === "temporarily_unavailable" || error.error === "server_error") {
    return new SignOnRefused("provider_unavailable", detail);
  }
  return new SignOnRefused("response_invalid", `the provider answered ${detail}`);
}

/** Sign-on through an OpenID Connect provider: authorization code flow with PKCE and a nonce. */
export function createOidcProtocol(deps: OidcDeps) {
  const configurations = new Map<string, { key: string; config: client.Configuration }>();

  const insecureAllowed = (issuer: string) =>
    !deps.production && new URL(issuer).protocol === "http:";

  /** The library's view of a provider, built from what was discovered at save time. */
  function configurationOf(provider: LoadedProvider): client.Configuration {
    const settings = provider.settings as unknown as OidcSettings;
    const secret = secretOf(provider.secrets) ?? "";
    const key = JSON.stringify([settings, secret]);
    const cached = configurations.get(provider.id);
    if (cached?.key === key) return cached.config;
    const config = new client.Configuration(settings.server, settings.clientId, secret);
    if (insecureAllowed(settings.issuer)) client.allowInsecureRequests(config);
    // The ID token's signature is checked against the provider's published keys even though
    // it came straight from the token endpoint: the answer must prove who issued it.
    client.enableNonRepudiationChecks(config);
    configurations.set(provider.id, { key, config });
    return config;
  }

  const protocol = {
    protocol: "oidc" as const,

    async prepare({ settings, secrets, previous }) {
      const input = settings as Omit<OidcSettings, "server">;
      const issuer = new URL(input.issuer);
      if (issuer.protocol !== "https:" && !insecureAllowed(input.issuer)) throw issuerInsecure();
      const clientSecret = secretOf(secrets) ?? secretOf(previous?.secrets);
      if (!clientSecret) throw clientSecretRequired();
      let config: client.Configuration;
      try {
        config = await client.discovery(issuer, input.clientId, clientSecret, undefined, {
          execute: insecureAllowed(input.issuer) ? [client.allowInsecureRequests] : [],
          timeout: DISCOVERY_TIMEOUT_SECONDS,
        });
      } catch (error) {
        throw issuerUnreachable(messageOf(error));
      }
      const server = JSON.parse(JSON.stringify(config.serverMetadata())) as client.ServerMetadata;
      return {
        settings: {
          issuer: input.issuer,
          clientId: input.clientId,
          scopes: input.scopes,
          emailClaim: input.emailClaim,
          nameClaim: input.nameClaim,
          server,
        } satisfies OidcSettings,
        secrets: { clientSecret },
      };
    },

    async start(provider, state) {
      const settings = provider.settings as unknown as OidcSettings;
      const config = configurationOf(provider);
      const verifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: signOnUrls(deps.publicUrl, provider.id).oidcCallback,
        scope: settings.scopes,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      });
      return { redirectTo: url.href, kept: { nonce, verifier } };
    },

    async logoutUrl(provider) {
      const config = configurationOf(provider);
      if (!config.serverMetadata().end_session_endpoint) return undefined;
      return client.buildEndSessionUrl(config, {
        client_id: config.clientMetadata().client_id,
        post_logout_redirect_uri: signOnUrls(deps.publicUrl, provider.id).afterLogout,
      }).href;
    },
  } satisfies SignOnProtocol;

  return {
    ...protocol,

    /**
     * Verifies the provider's answer at the callback (`query` is the callback's query
     * string) against the request it answers, and reads who signed in.
     */
    async verify(
      provider: LoadedProvider,
      requestRow: SignOnRequestRow,
      state: string,
      query: string,
    ): Promise<ExternalIdentity> {
      const settings = provider.settings as unknown as OidcSettings;
      const config = configurationOf(provider);
      const currentUrl = new URL(signOnUrls(deps.publicUrl, provider.id).oidcCallback);
      currentUrl.search = query;
      let claims: client.IDToken;
      let accessToken: string;
      try {
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: requestRow.kept.verifier,
          expectedNonce: requestRow.kept.nonce,
          expectedState: state,
          idTokenExpected: true,
        });
        claims = tokens.claims()!;
        accessToken = tokens.access_token;
      } catch (error) {
        throw refusalOf(error);
      }
      let profile: Record<string, unknown> = claims;
      // Some providers put the email only in the userinfo answer, unless asked otherwise.
      if (claims[settings.emailClaim] === undefined && settings.server.userinfo_endpoint) {
        try {
          profile = { ...(await client.fetchUserInfo(config, accessToken, claims.sub)), ...claims };
        } catch (error) {
          throw refusalOf(error);
        }
      }
      const email = profile[settings.emailClaim];
      const name = profile[settings.nameClaim];
      return {
        subject: claims.sub,
        // An address the provider says it has not verified proves nothing about its owner
        // (some providers send the claim as the string "false").
        email:
          typeof email === "string" && String(profile.email_verified).toLowerCase() !== "false"
            ? email
            : undefined,
        name: typeof name === "string" ? name : undefined,
      };
    },
  };
}

export type OidcProtocol = ReturnType<typeof createOidcProtocol>;
