import { asc, eq, inArray } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../../../contract";
import { createSecretBox } from "../../../lib/secret-box";
import { auditEvents } from "../../../platform/audit/audit.table";
import { buildAdmin, buildLearner, signIn } from "../../../testing/factories";
import { countSessions, countUsers, userByEmail } from "../../../testing/inspect";
import {
  startOidcIdp,
  startTamperingIssuer,
  type TamperingIssuer,
  type TestOidcIdp,
} from "../../../testing/oidc-idp";
import { useTestApp } from "../../../testing/test-app";
import { createIdentityProvidersService } from "../identity-providers.service";
import { identityProviders } from "../identity-providers.table";
import { userIdentities } from "../user-identities.table";
import { createOidcProtocol } from "./oidc.protocol";

const PORTAL = "http://localhost:5000";
const createSecretBoxForTest = () => createSecretBox(Buffer.alloc(32, 1));
let now = new Date();

describe("single sign-on through OpenID Connect", () => {
  const ctx = useTestApp({}, { clock: () => now });
  let idp: TestOidcIdp;
  let tampering: TamperingIssuer;

  beforeAll(async () => {
    [idp, tampering] = await Promise.all([startOidcIdp(PORTAL), startTamperingIssuer()]);
  });
  afterAll(async () => {
    await Promise.all([idp?.close(), tampering?.close()]);
  });

  const cookieOf = (response: LightMyRequestResponse, name: string) =>
    response.cookies.find((c) => c.name === name)?.value;

  async function adminCookie() {
    return signIn(ctx, await buildAdmin(ctx));
  }

  async function addProvider(cookie: string, overrides: Record<string, unknown> = {}) {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/identity-providers",
      headers: { cookie },
      payload: {
        protocol: "oidc",
        name: "Acme ID",
        domains: ["example.com"],
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        ...overrides,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().provider as { id: string; name: string };
  }

  /** Starts a sign-on in a browser (its cookies), as the sign-in page's button does. */
  async function start(providerId: string, browser: { cookie?: string; purpose?: string } = {}) {
    const response = await ctx.app.inject({
      method: "GET",
      url: `/api/sign-on/${providerId}/start${browser.purpose ? `?purpose=${browser.purpose}` : ""}`,
      // A click on the portal's own page, as a browser says it.
      headers: {
        "sec-fetch-site": "same-origin",
        ...(browser.cookie ? { cookie: browser.cookie } : {}),
      },
    });
    expect(response.statusCode, response.body).toBe(302);
    return {
      location: response.headers.location as string,
      binding: cookieOf(response, "credo_sign_on"),
    };
  }

  /** The browser comes back from the provider to the portal's callback. */
  function callback(url: string, cookie: string) {
    const { pathname, search } = new URL(url);
    return ctx.app.inject({ method: "GET", url: `${pathname}${search}`, headers: { cookie } });
  }

  /** A whole sign-on through the test provider as `email`, in one browser. */
  async function signOnAs(providerId: string, email: string, session?: string) {
    const started = await start(providerId, { cookie: session });
    const back = await idp.signIn(started.location, email);
    const cookie = [`credo_sign_on=${started.binding}`, session].filter(Boolean).join("; ");
    return callback(back, cookie);
  }

  async function signOnEvents() {
    // Written order: a read without one may come back in any order on PostgreSQL.
    return ctx.database.db
      .select()
      .from(auditEvents)
      .where(
        inArray(auditEvents.type, [
          "sign_on.signed_in",
          "sign_on.refused",
          "sign_on.learner_created",
        ]),
      )
      .orderBy(asc(auditEvents.id));
  }

  async function expectRefused(response: LightMyRequestResponse, reason: string, page = "/") {
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${page}?signOnError=${reason}`);
    expect(cookieOf(response, "credo_session")).toBeUndefined();
    const refused = (await signOnEvents()).filter((e) => e.type === "sign_on.refused");
    expect(refused.at(-1)?.details).toMatchObject({ reason });
  }

  describe("identity providers in Settings", () => {
    it("adds, lists, edits and removes an OpenID Connect provider; the secret never leaves", async () => {
      const cookie = await adminCookie();
      const created = await addProvider(cookie, { domains: ["Example.com", "example.org"] });
      expect(created).toMatchObject({
        protocol: "oidc",
        name: "Acme ID",
        domains: ["example.com", "example.org"],
        createsLearners: false,
        secretSet: true,
        scopes: "openid email profile",
        emailClaim: "email",
        nameClaim: "name",
        redirectUri: `${PORTAL}/api/sign-on/${created.id}/oidc/callback`,
      });
      const [row] = await ctx.database.db.select().from(identityProviders);
      expect(row?.secrets).not.toContain(idp.clientSecret);
      expect(row?.settings).toMatchObject({ server: { issuer: idp.issuer } });

      const list = await ctx.app.inject({
        method: "GET",
        url: "/api/identity-providers",
        headers: { cookie },
      });
      expect(list.json().providers).toHaveLength(1);
      expect(list.body).not.toContain(idp.clientSecret);

      const edited = await ctx.app.inject({
        method: "PATCH",
        url: `/api/identity-providers/${created.id}`,
        headers: { cookie },
        payload: {
          protocol: "oidc",
          name: "Acme SSO",
          domains: ["example.com"],
          createsLearners: true,
          issuer: idp.issuer,
          clientId: idp.clientId,
        },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().provider).toMatchObject({
        name: "Acme SSO",
        secretSet: true,
        createsLearners: true,
      });
      const one = await ctx.app.inject({
        method: "GET",
        url: `/api/identity-providers/${created.id}`,
        headers: { cookie },
      });
      expect(one.json().provider.name).toBe("Acme SSO");

      const publicList = await ctx.app.inject({ method: "GET", url: "/api/sign-on/providers" });
      expect(publicList.json()).toEqual({
        providers: [{ id: created.id, name: "Acme SSO", protocol: "oidc" }],
      });
      const found = await ctx.app.inject({
        method: "POST",
        url: "/api/sign-on/discover",
        payload: { email: "Someone@EXAMPLE.com" },
      });
      expect(found.json()).toEqual({ provider: { id: created.id, name: "Acme SSO" } });
      const none = await ctx.app.inject({
        method: "POST",
        url: "/api/sign-on/discover",
        payload: { email: "someone@elsewhere.net" },
      });
      expect(none.json()).toEqual({ provider: null });

      const removed = await ctx.app.inject({
        method: "DELETE",
        url: `/api/identity-providers/${created.id}`,
        headers: { cookie },
      });
      expect(removed.statusCode).toBe(200);
      const again = await ctx.app.inject({
        method: "DELETE",
        url: `/api/identity-providers/${created.id}`,
        headers: { cookie },
      });
      expect(again.json().code).toBe("sso.provider_not_found");
      const types = (await ctx.database.db.select().from(auditEvents)).map((e) => e.type);
      expect(types).toEqual([
        "identity_provider.created",
        "identity_provider.updated",
        "identity_provider.deleted",
      ]);
    });

    it("refuses settings that cannot work, each with its own code, and saves nothing", async () => {
      const cookie = await adminCookie();
      const post = (payload: Record<string, unknown>) =>
        ctx.app.inject({
          method: "POST",
          url: "/api/identity-providers",
          headers: { cookie },
          payload,
        });
      const oidc = {
        protocol: "oidc",
        name: "Acme ID",
        domains: ["example.com"],
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
      };
      const unreachable = await post({ ...oidc, issuer: "http://127.0.0.1:9/nothing" });
      expect([unreachable.statusCode, unreachable.json().code]).toEqual([
        400,
        "sso.issuer_unreachable",
      ]);
      const noSecret = await post({ ...oidc, clientSecret: undefined });
      expect([noSecret.statusCode, noSecret.json().code]).toEqual([
        400,
        "sso.client_secret_required",
      ]);
      const noOpenid = await post({ ...oidc, scopes: "email profile" });
      expect([noOpenid.statusCode, noOpenid.json().code]).toEqual([400, "validation.invalid_body"]);
      expect(await ctx.database.db.select().from(identityProviders)).toEqual([]);

      const first = await addProvider(cookie);
      const taken = await post({ ...oidc, name: "Other", domains: ["example.com"] });
      expect([taken.statusCode, taken.json().code]).toEqual([409, "sso.domain_taken"]);
      const second = await addProvider(cookie, { name: "Other", domains: ["example.org"] });
      const takenOnEdit = await ctx.app.inject({
        method: "PATCH",
        url: `/api/identity-providers/${second.id}`,
        headers: { cookie },
        payload: { ...oidc, name: "Other", domains: ["example.org", "example.com"] },
      });
      expect([takenOnEdit.statusCode, takenOnEdit.json().code]).toEqual([409, "sso.domain_taken"]);
      const mismatch = await ctx.app.inject({
        method: "PATCH",
        url: `/api/identity-providers/${first.id}`,
        headers: { cookie },
        payload: {
          protocol: "saml",
          name: "Acme",
          metadataUrl: "https://idp.example.com/metadata",
        },
      });
      expect([mismatch.statusCode, mismatch.json().code]).toEqual([400, "sso.protocol_mismatch"]);
      const missing = await ctx.app.inject({
        method: "PATCH",
        url: "/api/identity-providers/nope",
        headers: { cookie },
        payload: oidc,
      });
      expect([missing.statusCode, missing.json().code]).toEqual([404, "sso.provider_not_found"]);
      const notThere = await ctx.app.inject({
        method: "GET",
        url: "/api/identity-providers/nope",
        headers: { cookie },
      });
      expect(notThere.statusCode).toBe(404);
      const startMissing = await ctx.app.inject({ method: "GET", url: "/api/sign-on/nope/start" });
      expect([startMissing.statusCode, startMissing.json().code]).toEqual([
        404,
        "sso.provider_not_found",
      ]);
      const linkSignedOut = await ctx.app.inject({
        method: "GET",
        url: `/api/sign-on/${first.id}/start?purpose=link`,
      });
      expect([linkSignedOut.statusCode, linkSignedOut.json().code]).toEqual([
        401,
        "auth.not_signed_in",
      ]);
    });
  });

  describe("in production", () => {
    const input = () => ({
      protocol: "oidc" as const,
      name: "Acme ID",
      domains: [],
      createsLearners: false,
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      scopes: "openid email profile",
      emailClaim: "email",
      nameClaim: "name",
    });
    const service = (box: boolean) =>
      createIdentityProvidersService({
        db: ctx.database.db,
        audit: { append: async () => undefined },
        box: box ? createSecretBoxForTest() : undefined,
        protocols: [createOidcProtocol({ publicUrl: PORTAL, production: true })],
        publicUrl: PORTAL,
      });
    const actor = { id: "admin", role: "admin" as const };

    it("refuses an http issuer, and a secret when there is no SECRETS_KEY", async () => {
      await expect(service(true).create(input(), actor)).rejects.toMatchObject({
        statusCode: 400,
        code: "sso.issuer_insecure",
      });
      await expect(service(false).create(input(), actor)).rejects.toMatchObject({
        statusCode: 400,
        code: "sso.secrets_key_missing",
      });
      expect(await ctx.database.db.select().from(identityProviders)).toEqual([]);
    });
  });

  describe("signing in through an OpenID Connect provider", () => {
    it("signs a registered learner in with no password, binds the subject and audits it", async () => {
      const provider = await addProvider(await adminCookie());
      const learner = await buildLearner(ctx, { email: "ada@example.com", password: null });
      const started = await start(provider.id);
      const authorize = new URL(started.location);
      expect(authorize.origin).toBe(idp.issuer);
      expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorize.searchParams.get("nonce")).toBeTruthy();
      const back = await idp.signIn(started.location, "ada@example.com");
      const response = await callback(back, `credo_sign_on=${started.binding}`);
      expect(response.statusCode, response.body).toBe(302);
      expect(response.headers.location).toBe("/learner");
      const session = `credo_session=${cookieOf(response, "credo_session")}`;
      const me = await ctx.app.inject({
        method: "GET",
        url: "/api/auth/me",
        headers: { cookie: session },
      });
      expect(me.json().user.email).toBe("ada@example.com");
      const [bound] = await ctx.database.db.select().from(userIdentities);
      expect(bound).toMatchObject({
        providerId: provider.id,
        subject: idp.subjectOf("ada@example.com"),
        userId: learner.id,
      });
      const events = await signOnEvents();
      expect(events.map((e) => [e.type, e.learnerId])).toEqual([["sign_on.signed_in", learner.id]]);

      // The callback is single use: the same answer again finds no request.
      await expectRefused(
        await callback(back, `credo_sign_on=${started.binding}`),
        "request_unknown",
      );
      // Later sign-ons find the learner by the bound subject.
      expect((await signOnAs(provider.id, "ada@example.com")).headers.location).toBe("/learner");
    });

    it("refuses a restricted learner, an unknown email and a domain it does not serve, creating nothing", async () => {
      const provider = await addProvider(await adminCookie(), { domains: ["example.com"] });
      await buildLearner(ctx, { email: "held@example.com", status: "restricted" });
      const users = await countUsers(ctx);
      await expectRefused(await signOnAs(provider.id, "held@example.com"), "restricted");
      await expectRefused(await signOnAs(provider.id, "nobody@example.com"), "not_registered");
      await expectRefused(await signOnAs(provider.id, "ada@elsewhere.net"), "domain_not_served");
      expect(await countUsers(ctx)).toBe(users);
      expect(await countSessions(ctx)).toBe(1);
      expect(await ctx.database.db.select().from(userIdentities)).toEqual([]);
    });

    it("creates an unknown learner when the provider may, marked as created by sign-on", async () => {
      const admin = await adminCookie();
      const provider = await addProvider(admin, { createsLearners: true });
      idp.accounts.set("new@example.com", { name: "New Learner" });
      const response = await signOnAs(provider.id, "new@example.com");
      expect(response.headers.location).toBe("/learner");
      const created = await userByEmail(ctx, "new@example.com");
      expect(created).toMatchObject({
        name: "New Learner",
        role: "learner",
        status: "active",
        isRegisteredByAdmin: true,
        passwordHash: null,
        createdBySignOn: provider.id,
      });
      expect((await signOnEvents()).map((e) => e.type).sort()).toEqual([
        "sign_on.learner_created",
        "sign_on.signed_in",
      ]);
      const facts = await ctx.app.inject({
        method: "GET",
        url: `/api/sign-on/users/${created!.id}`,
        headers: { cookie: admin },
      });
      expect(facts.json()).toEqual({
        createdBySignOn: { providerName: "Acme ID" },
        links: [expect.objectContaining({ providerId: provider.id, name: "Acme ID" })],
      });
      const nobody = await ctx.app.inject({
        method: "GET",
        url: "/api/sign-on/users/nobody",
        headers: { cookie: admin },
      });
      expect([nobody.statusCode, nobody.json().code]).toEqual([404, "sso.user_not_found"]);
      // Administrators see who created the learner, and that a removed provider did.
      const listed = async () =>
        (
          await ctx.app.inject({
            method: "GET",
            url: "/api/users/learners",
            headers: { cookie: admin },
          })
        ).json()[0].createdBySignOn;
      expect(await listed()).toEqual({ providerName: "Acme ID" });
      await ctx.app.inject({
        method: "DELETE",
        url: `/api/identity-providers/${provider.id}`,
        headers: { cookie: admin },
      });
      expect(await listed()).toEqual({ providerName: null });
    });

    it("keeps a created learner's name within the portal's own limit", async () => {
      const provider = await addProvider(await adminCookie(), { createsLearners: true });
      idp.accounts.set("long@example.com", { name: `Dr ${"Very ".repeat(60)}Long Name` });
      expect((await signOnAs(provider.id, "long@example.com")).headers.location).toBe("/learner");
      const created = await userByEmail(ctx, "long@example.com");
      expect(created?.name.length).toBeLessThanOrEqual(120);
      expect(created?.name.startsWith("Dr Very Very")).toBe(true);
    });

    it("refuses an email the provider has not verified", async () => {
      const provider = await addProvider(await adminCookie(), { createsLearners: true });
      idp.accounts.set("unverified@example.com", { emailVerified: false });
      await expectRefused(await signOnAs(provider.id, "unverified@example.com"), "email_missing");
      expect(await userByEmail(ctx, "unverified@example.com")).toBeUndefined();
      // Some providers send the claim as text.
      await buildLearner(ctx, { email: "texted@example.com", password: null });
      idp.accounts.set("texted@example.com", { emailVerified: "false" as unknown as boolean });
      await expectRefused(await signOnAs(provider.id, "texted@example.com"), "email_missing");
    });

    it("lets an administrator in only once they linked the provider from their profile", async () => {
      const admin = await buildAdmin(ctx, { email: "boss@example.com" });
      const session = await signIn(ctx, admin);
      const provider = await addProvider(session);
      await expectRefused(await signOnAs(provider.id, "boss@example.com"), "not_registered");

      const linked = await signOnAs(provider.id, "boss@example.com", session);
      // Linking started from the profile goes back there.
      const linkStart = await start(provider.id, { cookie: session, purpose: "link" });
      const back = await idp.signIn(linkStart.location, "boss@example.com");
      const link = await callback(back, `credo_sign_on=${linkStart.binding}; ${session}`);
      expect(linked.statusCode).toBe(302);
      expect(link.headers.location).toBe("/profile");
      const links = await ctx.app.inject({
        method: "GET",
        url: "/api/sign-on/links",
        headers: { cookie: session },
      });
      expect(links.json().links).toEqual([
        expect.objectContaining({ providerId: provider.id, name: "Acme ID" }),
      ]);
      expect((await signOnAs(provider.id, "boss@example.com")).headers.location).toBe("/admin");
    });

    it("refuses to link a provider account already bound to someone else", async () => {
      const provider = await addProvider(await adminCookie());
      await buildLearner(ctx, { email: "ada@example.com" });
      await signOnAs(provider.id, "ada@example.com");
      const other = await buildAdmin(ctx, { email: "other@example.com" });
      const session = await signIn(ctx, other);
      const linkStart = await start(provider.id, { cookie: session, purpose: "link" });
      const back = await idp.signIn(linkStart.location, "ada@example.com");
      await expectRefused(
        await callback(back, `credo_sign_on=${linkStart.binding}; ${session}`),
        "link_conflict",
        "/profile",
      );
    });

    it("links one provider account per Credo account", async () => {
      const provider = await addProvider(await adminCookie());
      const learner = await buildLearner(ctx, { email: "grace@example.com" });
      expect((await signOnAs(provider.id, "grace@example.com")).headers.location).toBe("/learner");
      // Whoever holds her session a moment cannot leave a second account of theirs bound.
      const session = await signIn(ctx, learner);
      const linkStart = await start(provider.id, { cookie: session, purpose: "link" });
      const back = await idp.signIn(linkStart.location, "mallory@example.com");
      await expectRefused(
        await callback(back, `credo_sign_on=${linkStart.binding}; ${session}`),
        "link_conflict",
        "/profile",
      );
      const bound = await ctx.database.db
        .select({ subject: userIdentities.subject })
        .from(userIdentities)
        .where(eq(userIdentities.userId, learner.id));
      expect(bound).toEqual([{ subject: idp.subjectOf("grace@example.com") }]);
    });

    it("links only from the portal's own page, never from a navigation another site started", async () => {
      const admin = await buildAdmin(ctx, { email: "chief@example.com" });
      const session = await signIn(ctx, admin);
      const provider = await addProvider(session);
      const linkFrom = (headers: Record<string, string>) =>
        ctx.app.inject({
          method: "GET",
          url: `/api/sign-on/${provider.id}/start?purpose=link`,
          headers: { cookie: session, ...headers },
        });
      for (const headers of <Record<string, string>[]>[
        { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
        { "sec-fetch-site": "same-site", "sec-fetch-mode": "navigate" },
        { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" },
        { referer: "https://elsewhere.example/page" },
        {},
      ]) {
        const refused = await linkFrom(headers);
        expect([refused.statusCode, refused.json().code], JSON.stringify(headers)).toEqual([
          403,
          "auth.forbidden",
        ]);
      }
      // A browser without Fetch Metadata, from the portal's own Profile page.
      const fromProfile = await linkFrom({ referer: "http://localhost:80/profile" });
      expect(fromProfile.statusCode, fromProfile.body).toBe(302);
      await expectRefused(await signOnAs(provider.id, "chief@example.com"), "not_registered");
    });

    it("binds the request to the browser that started it, its state and its ten minutes", async () => {
      const provider = await addProvider(await adminCookie());
      await buildLearner(ctx, { email: "ada@example.com" });
      const mine = await start(provider.id);
      const back = await idp.signIn(mine.location, "ada@example.com");
      const theirs = await start(provider.id);
      // Another browser, with its own binding cookie or none, finds no request.
      await expectRefused(
        await callback(back, `credo_sign_on=${theirs.binding}`),
        "request_unknown",
      );
      await expectRefused(await callback(back, ""), "request_unknown");
      // A state this portal never issued.
      const forged = new URL(back);
      forged.searchParams.set("state", "x".repeat(43));
      await expectRefused(
        await callback(forged.href, `credo_sign_on=${mine.binding}`),
        "request_unknown",
      );
      // Ten minutes later the request has expired.
      now = new Date(Date.now() + 11 * 60 * 1000);
      try {
        await expectRefused(
          await callback(back, `credo_sign_on=${mine.binding}`),
          "request_unknown",
        );
      } finally {
        now = new Date();
      }
      expect(await countSessions(ctx)).toBe(1);
    });

    it("tells a person who cancelled at the provider that the sign-in was cancelled", async () => {
      const provider = await addProvider(await adminCookie());
      await buildLearner(ctx, { email: "ada@example.com" });
      const started = await start(provider.id);
      const back = await idp.cancel(started.location);
      expect(new URL(back).searchParams.get("error")).toBe("access_denied");
      await expectRefused(await callback(back, `credo_sign_on=${started.binding}`), "cancelled");
      const [refusal] = (await signOnEvents()).filter((e) => e.type === "sign_on.refused");
      expect(String(refusal?.details.detail)).toMatch(/access_denied/);
      expect(await countSessions(ctx)).toBe(1);
      // Nothing is spent: the person can start again and sign in.
      expect((await signOnAs(provider.id, "ada@example.com")).headers.location).toBe("/learner");
    });

    it("sends the browser to the provider's sign-out after Credo's session ends", async () => {
      const provider = await addProvider(await adminCookie());
      await buildLearner(ctx, { email: "ada@example.com" });
      const response = await signOnAs(provider.id, "ada@example.com");
      const cookie = ["credo_session", "credo_sign_on_session"]
        .map((name) => `${name}=${cookieOf(response, name)}`)
        .join("; ");
      const out = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/logout",
        headers: { cookie },
      });
      expect(out.statusCode).toBe(200);
      const target = new URL(out.json().redirectTo);
      expect(`${target.origin}${target.pathname}`).toBe(`${idp.issuer}/session/end`);
      expect(target.searchParams.get("post_logout_redirect_uri")).toBe(`${PORTAL}/`);
      expect(await countSessions(ctx)).toBe(1);
    });
  });

  describe("answers a genuine provider never gives", () => {
    async function tamperedSignOn(tamper: TamperingIssuer["tamper"]) {
      const provider = await addProvider(await adminCookie(), {
        issuer: tampering.issuer,
        clientId: tampering.clientId,
        clientSecret: tampering.clientSecret,
        createsLearners: true,
      });
      tampering.person = { sub: "tampered-subject", email: "someone@example.com" };
      tampering.tamper = tamper;
      const started = await start(provider.id);
      const back = await fetch(started.location, { redirect: "manual" });
      return callback(back.headers.get("location") ?? "", `credo_sign_on=${started.binding}`);
    }

    it.each([
      ["another nonce", { nonce: "not-the-nonce-sent" }, /nonce/],
      ["a signature by another key", { foreignKey: true }, /signature|JWS|key/i],
      ["an expired ID token", { expiredSecondsAgo: 3600 }, /exp/],
    ])("refuses an ID token with %s, creating nothing", async (_what, tamper, detail) => {
      const response = await tamperedSignOn(tamper);
      await expectRefused(response, "response_invalid");
      const [refusal] = (await signOnEvents()).filter((e) => e.type === "sign_on.refused");
      expect(String(refusal?.details.detail)).toMatch(detail);
      expect(await userByEmail(ctx, "someone@example.com")).toBeUndefined();
      expect(await ctx.database.db.select().from(userIdentities)).toEqual([]);
      expect(await countSessions(ctx)).toBe(1);
    });

    it("accepts the same issuer's honest answer", async () => {
      const response = await tamperedSignOn({});
      expect(response.headers.location).toBe("/learner");
      expect((await userByEmail(ctx, "someone@example.com"))?.createdBySignOn).toBeTruthy();
      expect(MESSAGES.restricted).toContain("restricted");
      const [row] = await ctx.database.db
        .select()
        .from(userIdentities)
        .where(eq(userIdentities.subject, "tampered-subject"));
      expect(row).toBeDefined();
    });
  });
});
