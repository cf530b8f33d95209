import type { LightMyRequestResponse } from "fastify";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { expectErrorBody } from "../../testing/errors";
import { buildAdmin, buildLearner } from "../../testing/factories";
import { countLoginFailures, countSessions } from "../../testing/inspect";
import { createSoftwareAuthenticator } from "../../testing/software-authenticator";
import { cookieFrom, type TestContext, useTestApp } from "../../testing/test-app";
import { secondFactorPolicy } from "./second-factor.table";

/** The test app's PUBLIC_URL (test-app.ts) is the relying party. */
const RP = { id: "localhost", origin: "http://localhost:5000" };
const STEP = "/api/auth/second-factor";

/** The authenticator app's clock, moved by hand: the server reads the same one. */
let nowMs = Date.UTC(2026, 10, 30, 9, 0, 0);
const clock = () => new Date(nowMs);
const codeAt = (secret: string, ms = nowMs) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: ms });

/** A refusal: its status, its code, and a well-formed error body. */
function refused(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(expectErrorBody(response).code).toBe(code);
}

type Admin = Awaited<ReturnType<typeof buildAdmin>>;

function post(ctx: TestContext, url: string, cookie?: string, payload?: object, ip?: string) {
  return ctx.app.inject({
    method: "POST",
    url,
    payload,
    remoteAddress: ip,
    headers: cookie ? { cookie } : {},
  });
}

const login = (ctx: TestContext, admin: { email: string; password: string | null }, more = {}) =>
  post(ctx, "/api/auth/login", undefined, {
    email: admin.email,
    password: admin.password,
    ...more,
  });

/** The pending second step's cookie, as the browser sends it back. */
function stepCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === "credo_second_step");
  if (!cookie) throw new Error(`no second-step cookie in ${response.statusCode} ${response.body}`);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: STEP });
  return `credo_second_step=${cookie.value}`;
}

/** An administrator with an authenticator app, its seed and the recovery codes shown once. */
async function adminWithApp(ctx: TestContext, admin?: Admin) {
  const user = admin ?? (await buildAdmin(ctx));
  const session = cookieFrom(await login(ctx, user));
  const setup = await post(ctx, "/api/second-factor/totp", session);
  expect(setup.statusCode).toBe(200);
  const { secret, uri } = setup.json();
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  const added = await post(ctx, "/api/second-factor/factors", session, {
    method: "totp",
    code: codeAt(secret),
  });
  expect(added.statusCode).toBe(200);
  return { user, session, secret, codes: added.json().newRecoveryCodes as string[] };
}

/** An administrator with one passkey on a software authenticator. */
async function adminWithPasskey(ctx: TestContext) {
  const user = await buildAdmin(ctx);
  const session = cookieFrom(await login(ctx, user));
  const authenticator = createSoftwareAuthenticator(RP);
  const options = (await post(ctx, "/api/second-factor/passkey-options", session)).json();
  expect(options.rp).toEqual({ name: "Credo", id: "localhost" });
  const added = await post(ctx, "/api/second-factor/factors", session, {
    method: "passkey",
    name: "Work laptop",
    response: authenticator.register(options),
  });
  expect(added.statusCode).toBe(200);
  return { user, session, authenticator };
}

async function auditTypes(ctx: TestContext, session: string) {
  const page = await ctx.app.inject({
    method: "GET",
    url: "/api/audit/events?limit=100",
    headers: { cookie: session },
  });
  return (page.json().events as { type: string; details: Record<string, unknown> }[]).filter((e) =>
    e.type.startsWith("second_factor."),
  );
}

describe("an administrator's second factor", () => {
  const ctx = useTestApp({}, { clock });

  it("leaves the spec's sign-in unchanged for learners and administrators without one", async () => {
    const learner = await buildLearner(ctx);
    const admin = await buildAdmin(ctx);
    for (const user of [learner, admin]) {
      const response = await login(ctx, user);
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json())).toEqual(["user"]);
      expect(response.cookies.map((c) => c.name)).not.toContain("credo_second_step");
      expect(await countSessions(ctx, user.id)).toBe(1);
    }
  });

  it("asks for a code after the password, keeps Remember me, and refuses wrong and reused codes", async () => {
    const { user, secret, session } = await adminWithApp(ctx);
    // The code that confirmed the app is already spent.
    let pending = await login(ctx, user, { rememberMe: true });
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({
      secondFactor: {
        setupRequired: false,
        methods: ["totp", "recovery"],
        expiresAt: expect.any(String),
      },
    });
    expect(pending.cookies.map((c) => c.name)).toEqual(["credo_second_step"]);
    expect(await countSessions(ctx, user.id)).toBe(1);
    let step = stepCookie(pending);
    const reusedSetupCode = await post(ctx, `${STEP}/verify`, step, {
      method: "totp",
      code: codeAt(secret),
    });
    refused(reusedSetupCode, 401, "mfa.code_reused");

    const failuresBefore = await countLoginFailures(ctx);
    const wrong = await post(ctx, `${STEP}/verify`, step, { method: "totp", code: "000000" });
    refused(wrong, 401, "mfa.code_invalid");
    expect(await countLoginFailures(ctx)).toBe(failuresBefore + 1);
    expect(wrong.cookies.map((c) => c.name)).not.toContain("credo_session");

    nowMs += 30_000;
    const right = await post(ctx, `${STEP}/verify`, step, { method: "totp", code: codeAt(secret) });
    expect(right.statusCode).toBe(200);
    expect(right.json().user).toMatchObject({ id: user.id, role: "admin" });
    const sessionCookie = right.cookies.find((c) => c.name === "credo_session");
    expect(sessionCookie?.expires).toBeDefined();
    expect(await countSessions(ctx, user.id)).toBe(2);
    // A successful step forgives the failures, as a successful sign-in does.
    expect(await countLoginFailures(ctx)).toBe(0);

    // The step is used up, and the same code (or the step before) never signs in again.
    const replay = await post(ctx, `${STEP}/verify`, step, { method: "totp", code: "123456" });
    refused(replay, 401, "mfa.challenge_expired");
    pending = await login(ctx, user);
    step = stepCookie(pending);
    const sameCode = await post(ctx, `${STEP}/verify`, step, {
      method: "totp",
      code: codeAt(secret),
    });
    refused(sameCode, 401, "mfa.code_reused");
    const earlier = await post(ctx, `${STEP}/verify`, step, {
      method: "totp",
      code: codeAt(secret, nowMs - 30_000),
    });
    refused(earlier, 401, "mfa.code_reused");

    const trail = await auditTypes(ctx, session);
    expect(
      trail.map((e) => [e.type, e.details.method, e.details.reason ?? null]).reverse(),
    ).toEqual([
      ["second_factor.added", "totp", null],
      ["second_factor.recovery_codes_created", undefined, null],
      ["second_factor.refused", "totp", "code_reused"],
      ["second_factor.refused", "totp", "code_invalid"],
      ["second_factor.passed", "totp", null],
      ["second_factor.refused", "totp", "expired"],
      ["second_factor.refused", "totp", "code_reused"],
      ["second_factor.refused", "totp", "code_reused"],
    ]);
  });

  it("takes each recovery code once", async () => {
    const { user, codes } = await adminWithApp(ctx);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const first = await post(ctx, `${STEP}/verify`, stepCookie(await login(ctx, user)), {
      method: "recovery",
      code: codes[0]!.toUpperCase(),
    });
    expect(first.statusCode).toBe(200);
    const again = await post(ctx, `${STEP}/verify`, stepCookie(await login(ctx, user)), {
      method: "recovery",
      code: codes[0],
    });
    refused(again, 401, "mfa.recovery_code_used");
  });

  it("signs in with a passkey's signature, and refuses another account's passkey and a stale challenge", async () => {
    const { user, authenticator } = await adminWithPasskey(ctx);
    const other = await adminWithPasskey(ctx);
    const pending = await login(ctx, user);
    expect(pending.json().secondFactor.methods).toEqual(["passkey", "recovery"]);
    const step = stepCookie(pending);

    const stale = (await post(ctx, `${STEP}/passkey-options`, step)).json();
    const options = (await post(ctx, `${STEP}/passkey-options`, step)).json();
    expect(options.rpId).toBe("localhost");
    expect(options.allowCredentials).toHaveLength(1);
    refused(
      await post(ctx, `${STEP}/verify`, step, {
        method: "passkey",
        response: authenticator.assert(stale),
      }),
      401,
      "mfa.passkey_invalid",
    );
    refused(
      await post(ctx, `${STEP}/verify`, step, {
        method: "passkey",
        response: other.authenticator.assert(options),
      }),
      401,
      "mfa.passkey_unknown",
    );
    const signed = await post(ctx, `${STEP}/verify`, step, {
      method: "passkey",
      response: authenticator.assert(options),
    });
    expect(signed.statusCode).toBe(200);
    expect(signed.json().user.id).toBe(user.id);

    const status = (
      await ctx.app.inject({
        method: "GET",
        url: "/api/second-factor",
        headers: { cookie: cookieFrom(signed) },
      })
    ).json();
    expect(status.factors).toEqual([
      expect.objectContaining({
        method: "passkey",
        name: "Work laptop",
        lastUsedAt: expect.any(String),
      }),
    ]);
    expect(status.recoveryCodes).toEqual({ remaining: 10, createdAt: expect.any(String) });
  });

  it("counts wrong codes in the sign-in throttle", async () => {
    const { user } = await adminWithApp(ctx);
    const step = stepCookie(await login(ctx, user, {}));
    for (let i = 0; i < 10; i += 1) {
      const wrong = await post(
        ctx,
        `${STEP}/verify`,
        step,
        { method: "totp", code: "999999" },
        "127.0.0.9",
      );
      expect(wrong.statusCode).toBe(401);
    }
    const held = await post(
      ctx,
      `${STEP}/verify`,
      step,
      { method: "recovery", code: "aaaaa-bbbbb" },
      "127.0.0.9",
    );
    refused(held, 429, "auth.throttled");
  });

  it("asks an administrator without a factor to set one up when the organisation requires it", async () => {
    const { session } = await adminWithApp(ctx);
    const newcomer = await buildAdmin(ctx);
    const newcomerSession = cookieFrom(await login(ctx, newcomer));
    const notYet = await ctx.app.inject({
      method: "PUT",
      url: "/api/admin/second-factor/policy",
      payload: { required: true },
      headers: { cookie: newcomerSession },
    });
    refused(notYet, 409, "mfa.enrol_first");
    const required = await ctx.app.inject({
      method: "PUT",
      url: "/api/admin/second-factor/policy",
      payload: { required: true },
      headers: { cookie: session },
    });
    expect(required.json()).toEqual({ required: true });

    const pending = await login(ctx, newcomer);
    expect(pending.json().secondFactor).toMatchObject({ setupRequired: true, methods: [] });
    const step = stepCookie(pending);
    refused(
      await post(ctx, `${STEP}/verify`, step, { method: "totp", code: "123456" }),
      409,
      "mfa.setup_required",
    );
    refused(await post(ctx, `${STEP}/passkey-options`, step), 409, "mfa.setup_required");
    refused(
      await post(ctx, `${STEP}/setup`, step, { method: "totp", code: "123456" }),
      409,
      "mfa.setup_not_started",
    );
    const { secret } = (await post(ctx, `${STEP}/setup/totp`, step)).json();
    refused(
      await post(ctx, `${STEP}/setup`, step, { method: "totp", code: "000000" }),
      400,
      "mfa.setup_code_invalid",
    );
    const done = await post(ctx, `${STEP}/setup`, step, { method: "totp", code: codeAt(secret) });
    expect(done.statusCode).toBe(200);
    expect(done.json().user.id).toBe(newcomer.id);
    expect(done.json().recoveryCodes).toHaveLength(10);
    expect(await countSessions(ctx, newcomer.id)).toBe(2);

    // Set up now: the next sign-in asks for a code, and a setup is refused.
    const next = stepCookie(await login(ctx, newcomer));
    refused(await post(ctx, `${STEP}/setup/totp`, next), 409, "mfa.setup_not_required");
    refused(
      await post(ctx, `${STEP}/setup`, next, { method: "totp", code: "123456" }),
      409,
      "mfa.setup_not_required",
    );
    // The rule keeps the last factor in place.
    const last = (
      await ctx.app.inject({
        method: "GET",
        url: "/api/second-factor",
        headers: { cookie: cookieFrom(done) },
      })
    ).json();
    refused(
      await post(ctx, `/api/second-factor/factors/${last.factors[0].id}/remove`, cookieFrom(done), {
        password: newcomer.password,
      }),
      409,
      "mfa.required_by_organisation",
    );
  });

  it("holds a setup at sign-in to the throttle", async () => {
    const { session } = await adminWithApp(ctx);
    await ctx.app.inject({
      method: "PUT",
      url: "/api/admin/second-factor/policy",
      payload: { required: true },
      headers: { cookie: session },
    });
    const newcomer = await buildAdmin(ctx);
    const step = stepCookie(await login(ctx, newcomer));
    await post(ctx, `${STEP}/setup/totp`, step);
    for (let i = 0; i < 10; i += 1) {
      await post(ctx, `${STEP}/setup`, step, { method: "totp", code: "000000" }, "127.0.0.8");
    }
    refused(
      await post(ctx, `${STEP}/setup`, step, { method: "totp", code: "000000" }, "127.0.0.8"),
      429,
      "auth.throttled",
    );
  });

  it("refuses every step without the browser's pending sign-in", async () => {
    for (const url of ["verify", "passkey-options", "setup/totp", "setup"]) {
      const body =
        url === "verify" || url === "setup" ? { method: "totp", code: "123456" } : undefined;
      refused(await post(ctx, `${STEP}/${url}`, undefined, body), 401, "mfa.challenge_expired");
    }
  });

  it("removes a factor and renews recovery codes only with the password or a code", async () => {
    const { user, session, secret, codes } = await adminWithApp(ctx);
    refused(await post(ctx, "/api/second-factor/totp", session), 409, "mfa.totp_exists");
    refused(
      await post(ctx, "/api/second-factor/factors", session, { method: "totp", code: "123456" }),
      409,
      "mfa.setup_not_started",
    );
    refused(
      await post(ctx, "/api/second-factor/factors/nope/remove", session, {
        password: user.password,
      }),
      404,
      "mfa.not_found",
    );
    const { factors } = (
      await ctx.app.inject({
        method: "GET",
        url: "/api/second-factor",
        headers: { cookie: session },
      })
    ).json();
    const remove = `/api/second-factor/factors/${factors[0].id}/remove`;
    refused(
      await post(ctx, remove, session, { password: "not the password" }),
      400,
      "mfa.confirmation_wrong",
    );
    const renewed = await post(ctx, "/api/second-factor/recovery-codes", session, {
      code: codes[1],
    });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[2]);
    nowMs += 30_000;
    const removed = await post(ctx, remove, session, { code: codeAt(secret) });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ factors: [], recoveryCodes: null });
    refused(
      await post(ctx, "/api/second-factor/recovery-codes", session, { password: user.password }),
      404,
      "mfa.not_found",
    );
    // No factor left: the password alone signs in again.
    expect(Object.keys((await login(ctx, user)).json())).toEqual(["user"]);
    expect((await auditTypes(ctx, session)).map((e) => e.type)).toContain("second_factor.removed");
  });

  it("holds confirmations to the throttle", async () => {
    const { session } = await adminWithApp(ctx);
    const { factors } = (
      await ctx.app.inject({
        method: "GET",
        url: "/api/second-factor",
        headers: { cookie: session },
      })
    ).json();
    const remove = `/api/second-factor/factors/${factors[0].id}/remove`;
    for (let i = 0; i < 10; i += 1) {
      await post(ctx, remove, session, { password: "wrong" }, "127.0.0.7");
    }
    refused(
      await post(ctx, remove, session, { password: "wrong" }, "127.0.0.7"),
      429,
      "auth.throttled",
    );
    refused(
      await post(
        ctx,
        "/api/second-factor/recovery-codes",
        session,
        { password: "wrong" },
        "127.0.0.7",
      ),
      429,
      "auth.throttled",
    );
  });

  it("refuses a passkey the browser did not make for the ceremony", async () => {
    const { session } = await adminWithApp(ctx);
    const authenticator = createSoftwareAuthenticator({
      id: "localhost",
      origin: "http://evil.localhost:5000",
    });
    const options = (await post(ctx, "/api/second-factor/passkey-options", session)).json();
    refused(
      await post(ctx, "/api/second-factor/factors", session, {
        method: "passkey",
        name: "Phishing kit",
        response: authenticator.register(options),
      }),
      400,
      "mfa.passkey_registration_invalid",
    );
    const policy = await ctx.app.inject({
      method: "GET",
      url: "/api/admin/second-factor/policy",
      headers: { cookie: session },
    });
    expect(policy.json()).toEqual({ required: false });
  });
});

describe("authenticator apps without SECRETS_KEY in production", () => {
  const ctx = useTestApp({ NODE_ENV: "production", PUBLIC_URL: "https://learn.example.com" });

  it("are refused, and nothing is stored", async () => {
    const admin = await buildAdmin(ctx);
    const signedIn = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: admin.email, password: admin.password },
      headers: { host: "learn.example.com" },
    });
    const cookie = signedIn.cookies.find((c) => c.name === "__Host-credo_session");
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/second-factor/totp",
      headers: { host: "learn.example.com", cookie: `__Host-credo_session=${cookie?.value}` },
    });
    refused(response, 503, "mfa.secrets_key_missing");

    // Nor can the organisation's rule have one set up at sign-in.
    await ctx.database.db.insert(secondFactorPolicy).values({ id: 1, required: true });
    const pending = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: admin.email, password: admin.password },
      headers: { host: "learn.example.com" },
    });
    refused(
      await ctx.app.inject({
        method: "POST",
        url: `${STEP}/setup/totp`,
        headers: { host: "learn.example.com", cookie: stepCookie(pending) },
      }),
      503,
      "mfa.secrets_key_missing",
    );
  });
});
