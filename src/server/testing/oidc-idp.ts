import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import Provider from "oidc-provider";
import { freePort } from "./free-port";

/**
 * An OpenID Connect provider that really runs (oidc-provider), on loopback http, for the
 * server's tests and the browser tests: anyone may sign in by typing an email on its page,
 * and the subject is derived from the email. `accounts` changes what it says about one.
 */
export interface TestOidcIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Name and whether the email is verified, by email; unknown emails are verified. */
  accounts: Map<string, { name?: string; emailVerified?: boolean }>;
  subjectOf(email: string): string;
  /** Follows the IdP's pages from its authorization address: signs in as `email`, answers where it sends the browser back. */
  signIn(authorizeUrl: string, email: string): Promise<string>;
  /** Follows the IdP's pages and presses its Cancel: answers where it sends the browser back. */
  cancel(authorizeUrl: string): Promise<string>;
  close(): Promise<void>;
}

const CLIENT_ID = "credo-test";
const CLIENT_SECRET = "credo-test-secret-that-is-long-enough";

const subjectOf = (email: string) =>
  `sub-${createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 16)}`;

const LOGIN_PAGE = (uid: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Test identity provider</h1>
<form method="post" action="/interaction/${uid}/login">
<label for="email">Email</label> <input id="email" name="email" type="email" required>
<button type="submit">Sign in</button></form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>
</main></body></html>`;

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

const listen = (server: Server, port: number) =>
  new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** Starts the provider; `redirectPrefix` is the portal origin its client may send answers to. */
export async function startOidcIdp(redirectPrefix: string): Promise<TestOidcIdp> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, { name?: string; emailVerified?: boolean }>();
  const emails = new Map<string, string>();
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${redirectPrefix}/api/sign-on/callback`],
        post_logout_redirect_uris: [`${redirectPrefix}/`],
        response_types: ["code"],
        grant_types: ["authorization_code"],
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "test", use: "sig", alg: "RS256" }] },
    findAccount: async (_ctx, sub) => {
      const email = emails.get(sub);
      if (!email) return undefined;
      const account = accounts.get(email) ?? {};
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email,
          email_verified: account.emailVerified ?? true,
          name: account.name ?? email.split("@")[0],
        }),
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The ID token carries the email and name, as Entra ID, Okta and Google send them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["credo-test-idp"] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
    // Every sign-in is consented to: the test provider asks only who you are.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  // Answers go to any of the portal's addresses: provider ids are known only once created.
  provider.Client.prototype.redirectUriAllowed = (uri: string) => uri.startsWith(redirectPrefix);
  const callback = provider.callback();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(req.url ?? "");
    if (!match) return void callback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (!match[2]) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          return void res.end(LOGIN_PAGE(details.uid));
        }
        if (match[2] === "/abort") {
          // What a provider answers when the person cancels its sign-in (RFC 6749, 4.1.2.1).
          return void (await provider.interactionFinished(
            req,
            res,
            { error: "access_denied", error_description: "End-User aborted interaction" },
            { mergeWithLastSubmission: false },
          ));
        }
        const email = (await formBody(req)).get("email")?.trim().toLowerCase() ?? "";
        emails.set(subjectOf(email), email);
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: subjectOf(email) } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        res.writeHead(400, { "content-type": "text/plain" });
        res.end(String(error));
      }
    })();
  });
  await listen(server, port);

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    accounts,
    subjectOf,
    signIn: (authorizeUrl, email) => follow(authorizeUrl, "login", new URLSearchParams({ email })),
    cancel: (authorizeUrl) => follow(authorizeUrl, "abort", new URLSearchParams()),
    close: () => stop(server),
  };

  /** A browser through the IdP's pages, answering its sign-in page with `action`. */
  async function follow(authorizeUrl: string, action: string, form: URLSearchParams) {
    const cookies = new Map<string, string>();
    let url = authorizeUrl;
    let body: URLSearchParams | undefined;
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(url, {
        method: body ? "POST" : "GET",
        redirect: "manual",
        headers: {
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
          ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        body,
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      body = undefined;
      const location = response.headers.get("location");
      if (!location) {
        const uid = /\/interaction\/([\w-]+)$/.exec(url)?.[1];
        if (response.status !== 200 || !uid) {
          throw new Error(
            `identity provider answered ${response.status}: ${await response.text()}`,
          );
        }
        url = `${issuer}/interaction/${uid}/${action}`;
        body = form;
        continue;
      }
      const next = new URL(location, url).href;
      if (!next.startsWith(issuer)) return next;
      url = next;
    }
    throw new Error("identity provider redirected too often");
  }
}

/**
 * A second, deliberately tampering OpenID Connect issuer, for the answers a genuine provider
 * never gives: its token endpoint signs the ID token it is told to (another nonce, another
 * key, an expiry in the past). Discovery, the authorization redirect and the token exchange
 * are real HTTP, so openid-client checks them all as it would any provider's.
 */
export interface TamperingIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the next ID token gets wrong. */
  tamper: { nonce?: string; foreignKey?: boolean; expiredSecondsAgo?: number };
  /** The subject and email the next ID token names. */
  person: { sub: string; email: string };
  close(): Promise<void>;
}

export async function startTamperingIssuer(): Promise<TamperingIssuer> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const own = await generateKeyPair("RS256", { extractable: true });
  const foreign = await generateKeyPair("RS256", { extractable: true });
  const publicJwk = { ...(await exportJWK(own.publicKey)), kid: "own", use: "sig", alg: "RS256" };
  const codes = new Map<string, { nonce: string; clientId: string }>();
  const state: TamperingIssuer = {
    issuer,
    clientId: "credo-tampered",
    clientSecret: "tampered-client-secret",
    tamper: {},
    person: { sub: "tampered-subject", email: "someone@example.com" },
    close: () => stop(server),
  };
  const json = (res: ServerResponse, value: unknown) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    void (async () => {
      if (url.pathname === "/.well-known/openid-configuration") {
        return json(res, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
        });
      }
      if (url.pathname === "/jwks") return json(res, { keys: [publicJwk] });
      if (url.pathname === "/authorize") {
        const code = `code-${codes.size + 1}`;
        codes.set(code, {
          nonce: url.searchParams.get("nonce") ?? "",
          clientId: url.searchParams.get("client_id") ?? "",
        });
        const back = new URL(url.searchParams.get("redirect_uri") ?? "");
        back.searchParams.set("code", code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { location: back.href });
        return void res.end();
      }
      if (url.pathname === "/token" && req.method === "POST") {
        const code = (await formBody(req)).get("code") ?? "";
        const issued = codes.get(code);
        const now = Math.floor(Date.now() / 1000);
        const exp = state.tamper.expiredSecondsAgo
          ? now - state.tamper.expiredSecondsAgo
          : now + 300;
        const idToken = await new SignJWT({
          nonce: state.tamper.nonce ?? issued?.nonce,
          email: state.person.email,
          email_verified: true,
        })
          .setProtectedHeader({ alg: "RS256", kid: "own" })
          .setIssuer(issuer)
          .setSubject(state.person.sub)
          .setAudience(issued?.clientId ?? "")
          .setIssuedAt(exp - 600)
          .setExpirationTime(exp)
          .sign(state.tamper.foreignKey ? foreign.privateKey : own.privateKey);
        return json(res, {
          access_token: "tampered-access-token",
          token_type: "Bearer",
          expires_in: 300,
          id_token: idToken,
        });
      }
      res.writeHead(404);
      res.end();
    })();
  });
  await listen(server, port);
  return state;
}
