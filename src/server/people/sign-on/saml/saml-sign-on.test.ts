import { asc, inArray } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../../platform/audit/audit.table";
import { buildAdmin, buildLearner, signIn } from "../../../testing/factories";
import { countSessions, countUsers } from "../../../testing/inspect";
import {
  startTestSamlIdp,
  type TestSamlIdp,
  tamperedResponse,
  wrappedResponse,
} from "../../../testing/saml-idp";
import { useTestApp } from "../../../testing/test-app";
import { createSamlProtocol } from "./saml.protocol";

const PORTAL = "http://localhost:5000";
const FORM = "application/x-www-form-urlencoded";

describe("single sign-on through SAML 2.0", () => {
  const ctx = useTestApp();
  let idp: TestSamlIdp;

  beforeAll(async () => {
    idp = await startTestSamlIdp();
  });
  afterAll(async () => {
    await idp?.close();
  });

  const cookieOf = (response: LightMyRequestResponse, name: string) =>
    response.cookies.find((c) => c.name === name)?.value;

  async function addProvider(overrides: Record<string, unknown> = {}) {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/identity-providers",
      headers: { cookie },
      payload: {
        protocol: "saml",
        name: "Acme SAML",
        domains: ["example.com"],
        metadataXml: idp.metadata,
        ...overrides,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const provider = response.json().provider as { id: string; entityId: string; acsUrl: string };
    // As an administrator gives the identity provider Credo's metadata.
    const metadata = await ctx.app.inject({
      method: "GET",
      url: `/api/sign-on/${provider.id}/saml/metadata`,
    });
    idp.trust(metadata.body);
    return { ...provider, adminCookie: cookie };
  }

  /** Starts a sign-on in a browser: where the browser goes, the request id and its cookie. */
  async function start(providerId: string) {
    const response = await ctx.app.inject({
      method: "GET",
      url: `/api/sign-on/${providerId}/start`,
    });
    expect(response.statusCode, response.body).toBe(302);
    const location = String(response.headers.location);
    const answer = await idp.answer(location);
    const requestId = Buffer.from(answer.SAMLResponse, "base64")
      .toString()
      .match(/InResponseTo="([^"]+)"/)?.[1];
    return {
      location,
      answer,
      requestId: String(requestId),
      relayState: answer.RelayState,
      cookie: `credo_sign_on=${cookieOf(response, "credo_sign_on")}`,
    };
  }

  /** The browser posts the identity provider's answer, from Credo's own re-posting page. */
  function post(
    providerId: string,
    fields: { SAMLResponse: string; RelayState?: string },
    cookie?: string,
    site = "same-origin",
  ) {
    return ctx.app.inject({
      method: "POST",
      url: `/api/sign-on/${providerId}/saml/acs`,
      headers: {
        "content-type": FORM,
        "sec-fetch-site": site,
        ...(site === "cross-site" ? { origin: idp.url } : { origin: "null" }),
        ...(cookie ? { cookie } : {}),
      },
      payload: new URLSearchParams(fields).toString(),
    });
  }

  async function refusals() {
    // Written order: a read without one may come back in any order on PostgreSQL.
    return ctx.database.db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.type, ["sign_on.refused"]))
      .orderBy(asc(auditEvents.id));
  }

  /** Refused with `reason`, audited with a detail, and nothing created. */
  async function expectRefused(response: LightMyRequestResponse, reason: string, detail?: RegExp) {
    expect(response.statusCode, response.body).toBe(302);
    expect(response.headers.location).toBe(`/?signOnError=${reason}`);
    expect(cookieOf(response, "credo_session")).toBeUndefined();
    const last = (await refusals()).at(-1)?.details as { reason?: string; detail?: string };
    expect(last?.reason).toBe(reason);
    if (detail) expect(last?.detail).toMatch(detail);
  }

  it("adds a provider from its metadata and gives the provider Credo's metadata", async () => {
    const provider = await addProvider();
    expect(provider).toMatchObject({
      entityId: `${PORTAL}/api/sign-on/${provider.id}/saml/metadata`,
      acsUrl: `${PORTAL}/api/sign-on/${provider.id}/saml/acs`,
    });
    const metadata = await ctx.app.inject({
      method: "GET",
      url: `/api/sign-on/${provider.id}/saml/metadata`,
    });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers["content-type"]).toContain("application/samlmetadata+xml");
    expect(metadata.headers["content-disposition"]).toContain("attachment");
    expect(metadata.body).toContain(`entityID="${provider.entityId}"`);
    expect(metadata.body).toContain(`Location="${provider.acsUrl}"`);
    expect(metadata.body).toContain("X509Certificate");
    expect(metadata.body).not.toContain("PRIVATE KEY");

    // Read from its address too; the key pair stays when the provider is edited.
    const fromUrl = await ctx.app.inject({
      method: "PATCH",
      url: `/api/identity-providers/${provider.id}`,
      headers: { cookie: provider.adminCookie },
      payload: {
        protocol: "saml",
        name: "Acme SAML",
        domains: ["example.com"],
        metadataUrl: idp.metadataUrl,
      },
    });
    expect(fromUrl.statusCode, fromUrl.body).toBe(200);
    expect(fromUrl.json().provider).toMatchObject({ metadataUrl: idp.metadataUrl });
    expect(fromUrl.body).not.toContain("PRIVATE KEY");
    const again = await ctx.app.inject({
      method: "GET",
      url: `/api/sign-on/${provider.id}/saml/metadata`,
    });
    expect(again.body).toBe(metadata.body);

    const unknown = await ctx.app.inject({ method: "GET", url: "/api/sign-on/nope/saml/metadata" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe("sso.provider_not_found");
  });

  it("refuses metadata it cannot use, each with its own code, and saves nothing", async () => {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const attempt = async (fields: Record<string, unknown>) => {
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/identity-providers",
        headers: { cookie },
        payload: { protocol: "saml", name: "Broken", domains: ["broken.example"], ...fields },
      });
      expect(response.statusCode, response.body).toBe(400);
      return response.json().code;
    };
    expect(await attempt({})).toBe("sso.saml_metadata_required");
    expect(await attempt({ metadataXml: "<html>not metadata</html>" })).toBe(
      "sso.saml_metadata_invalid",
    );
    expect(await attempt({ metadataUrl: `${idp.url}/missing` })).toBe(
      "sso.saml_metadata_unreachable",
    );
    expect(await attempt({ metadataUrl: "http://127.0.0.1:1/metadata" })).toBe(
      "sso.saml_metadata_unreachable",
    );
    const unsigned = idp.metadata.replace(/<KeyDescriptor[\s\S]*?<\/KeyDescriptor>/g, "");
    expect(await attempt({ metadataXml: unsigned })).toBe("sso.saml_signing_certificate_missing");
    const noSignIn = idp.metadata.replace(
      /<SingleSignOnService[^>]*>(<\/SingleSignOnService>)?/g,
      "",
    );
    expect(await attempt({ metadataXml: noSignIn })).toBe("sso.saml_metadata_invalid");
    const list = await ctx.app.inject({
      method: "GET",
      url: "/api/identity-providers",
      headers: { cookie },
    });
    expect(list.json().providers).toEqual([]);

    // In production the metadata, which names the certificates to trust, comes only over https.
    const production = createSamlProtocol({
      db: ctx.database.db,
      publicUrl: PORTAL,
      production: true,
    });
    await expect(
      production.prepare({
        settings: { metadataUrl: idp.metadataUrl, emailAttribute: "email", nameAttribute: "name" },
        secrets: null,
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: "sso.saml_metadata_insecure" });
  });

  it("signs a registered learner in, by way of Credo's page that posts the answer again", async () => {
    const provider = await addProvider();
    const learner = await buildLearner(ctx, { email: "ada@example.com", name: "Ada" });
    idp.signInAs({ email: learner.email });
    const started = await start(provider.id);
    const fields = { SAMLResponse: started.answer.SAMLResponse, RelayState: started.relayState };

    // The provider's page posts from its own site: Credo only answers with its page.
    const crossSite = await post(provider.id, fields, undefined, "cross-site");
    expect(crossSite.statusCode).toBe(200);
    expect(crossSite.headers["content-type"]).toContain("text/html");
    expect(crossSite.body).toContain(`action="/api/sign-on/${provider.id}/saml/acs"`);
    expect(crossSite.body).toContain(`value="${started.relayState}"`);
    expect(crossSite.body).toContain('<script src="/api/sign-on/saml/repost.js"></script>');
    expect(crossSite.body).not.toMatch(/<script>/);
    expect(crossSite.headers["content-security-policy"]).toContain("script-src 'self'");
    const script = await ctx.app.inject({ method: "GET", url: "/api/sign-on/saml/repost.js" });
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toContain("javascript");

    // xmllint's emscripten build would leave listeners behind at every check (saml-schema.ts).
    const listeners = () => [
      process.listenerCount("uncaughtException"),
      process.stdout.listenerCount("drain"),
    ];
    const before = listeners();
    const signedIn = await post(provider.id, fields, started.cookie);
    expect(listeners()).toEqual(before);
    expect(signedIn.statusCode, signedIn.body).toBe(302);
    expect(signedIn.headers.location).toBe("/learner");
    expect(cookieOf(signedIn, "credo_session")).toBeDefined();
    expect(await countSessions(ctx, learner.id)).toBe(1);

    // Signing out of Credo ends its session, then single logout with the provider.
    const out = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: {
        cookie: ["credo_session", "credo_sign_on_session"]
          .map((name) => `${name}=${cookieOf(signedIn, name)}`)
          .join("; "),
      },
    });
    expect(out.statusCode).toBe(200);
    const logout = new URL(out.json().redirectTo);
    expect(`${logout.origin}${logout.pathname}`).toBe(`${idp.url}/slo`);
    const request = await idp.logoutRequest(logout.href);
    expect(request).toMatchObject({ nameId: learner.email, issuer: provider.entityId });
    expect(request.sessionIndex).toMatch(/^_session-/);
    expect(await countSessions(ctx, learner.id)).toBe(0);
  });

  it("accepts an encrypted assertion", async () => {
    const provider = await addProvider();
    const learner = await buildLearner(ctx, { email: "grace@example.com" });
    const started = await start(provider.id);
    const encrypted = await idp.mint({
      user: { email: learner.email },
      inResponseTo: started.requestId,
      encrypt: true,
    });
    expect(Buffer.from(encrypted, "base64").toString()).toContain("EncryptedAssertion");
    const response = await post(
      provider.id,
      { SAMLResponse: encrypted, RelayState: started.relayState },
      started.cookie,
    );
    expect(response.headers.location).toBe("/learner");
    expect(await countSessions(ctx, learner.id)).toBe(1);
  });

  it("tells a person who cancelled at the provider that the sign-in was cancelled", async () => {
    const provider = await addProvider();
    await buildLearner(ctx, { email: "ada@example.com" });
    const sessions = await countSessions(ctx);
    const started = await start(provider.id);
    const SAMLResponse = await idp.mint({
      user: { email: "ada@example.com" },
      inResponseTo: started.requestId,
      failed: "AuthnFailed",
    });
    await expectRefused(
      await post(provider.id, { SAMLResponse, RelayState: started.relayState }, started.cookie),
      "cancelled",
      /AuthnFailed/,
    );
    expect(await countSessions(ctx)).toBe(sessions);
  });

  it("refuses every answer it cannot trust, audits why, and creates no session and no learner", async () => {
    // This provider would create a learner for a new email: each refusal must stop before that.
    const provider = await addProvider({ createsLearners: true });
    const user = { email: "newcomer@example.com" };
    const users = await countUsers(ctx);
    const sessions = await countSessions(ctx);

    const answerFor = async (options: Partial<Parameters<TestSamlIdp["mint"]>[0]> = {}) => {
      const started = await start(provider.id);
      const SAMLResponse = await idp.mint({ user, inResponseTo: started.requestId, ...options });
      return { started, fields: { SAMLResponse, RelayState: started.relayState } };
    };

    let attempt = await answerFor();
    const tampered = tamperedResponse(attempt.fields.SAMLResponse, user.email, "boss@example.com");
    await expectRefused(
      await post(
        provider.id,
        { ...attempt.fields, SAMLResponse: tampered },
        attempt.started.cookie,
      ),
      "response_invalid",
      /signature/,
    );

    attempt = await answerFor();
    const invalid = tamperedResponse(attempt.fields.SAMLResponse, ' Version="2.0"', "");
    await expectRefused(
      await post(provider.id, { ...attempt.fields, SAMLResponse: invalid }, attempt.started.cookie),
      "response_invalid",
      /schema/,
    );

    attempt = await answerFor({ foreignKey: true });
    await expectRefused(
      await post(provider.id, attempt.fields, attempt.started.cookie),
      "response_invalid",
      /signature/,
    );

    attempt = await answerFor({ audience: "https://another-service.example/metadata" });
    await expectRefused(
      await post(provider.id, attempt.fields, attempt.started.cookie),
      "response_invalid",
      /audience/,
    );

    attempt = await answerFor({ shiftMs: -60 * 60_000 });
    await expectRefused(
      await post(provider.id, attempt.fields, attempt.started.cookie),
      "response_invalid",
      /validity/,
    );

    attempt = await answerFor();
    const wrapped = wrappedResponse(attempt.fields.SAMLResponse, user.email, "boss@example.com");
    await expectRefused(
      await post(provider.id, { ...attempt.fields, SAMLResponse: wrapped }, attempt.started.cookie),
      "response_invalid",
      /wrapping/,
    );

    // Answers to a request this browser did not start.
    attempt = await answerFor();
    await expectRefused(await post(provider.id, attempt.fields), "request_unknown", /cookie/);
    const someoneElse = await answerFor();
    const mine = await start(provider.id);
    await expectRefused(
      await post(provider.id, someoneElse.fields, mine.cookie),
      "request_unknown",
      /other browser/,
    );
    const unsolicited = await idp.mint({ user });
    await expectRefused(
      await post(provider.id, { SAMLResponse: unsolicited }, mine.cookie),
      "request_unknown",
      /state/,
    );
    attempt = await answerFor({ inResponseTo: someoneElse.started.requestId });
    await expectRefused(
      await post(provider.id, attempt.fields, attempt.started.cookie),
      "response_invalid",
      /InResponseTo/,
    );

    expect(await countUsers(ctx)).toBe(users);
    expect(await countSessions(ctx)).toBe(sessions);

    // The same assertion twice: the second is a replay, even for a fresh request.
    const first = await answerFor({ assertionId: "_assertion-once" });
    const accepted = await post(provider.id, first.fields, first.started.cookie);
    expect(accepted.headers.location).toBe("/learner");
    const replay = await answerFor({ assertionId: "_assertion-once" });
    await expectRefused(
      await post(provider.id, replay.fields, replay.started.cookie),
      "replayed",
      /already used/,
    );
    // The very same post again: its request was used up.
    await expectRefused(
      await post(provider.id, first.fields, first.started.cookie),
      "request_unknown",
    );
    expect(await countUsers(ctx)).toBe(users + 1);
  });
});
