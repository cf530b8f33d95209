import { describe, expect, it } from "vitest";
import { MESSAGES, SIGNED_IN_COOKIE } from "../../../contract";
import { expectErrorBody } from "../../testing/errors";
import { buildAdmin, buildLearner } from "../../testing/factories";
import { allKeys, countLoginFailures, countSessions } from "../../testing/inspect";
import { type TestContext, useTestApp } from "../../testing/test-app";

const RESTRICTED = "Your account has been restricted. Please contact the administrator.";
const ACCESS_DENIED = "Access denied. Only admin-registered learner emails are allowed.";

function login(ctx: TestContext, payload: Record<string, unknown>, remoteAddress?: string) {
  return ctx.app.inject({ method: "POST", url: "/api/auth/login", payload, remoteAddress });
}

/** The user object never carries a hash, a session or anything password-like but the flag. */
function expectNoSecrets(body: string) {
  const keys = allKeys(JSON.parse(body));
  expect(keys.filter((k) => /password|hash|session|secret|token/i.test(k))).toEqual([
    "passwordSetup",
  ]);
  expect(body).not.toContain("scrypt");
}

describe("POST /api/auth/login", () => {
  const ctx = useTestApp();

  it("signs a learner in and returns { user } without the password hash", async () => {
    const learner = await buildLearner(ctx, { name: "Ada Learner", phone: "+1 555 0100" });
    const response = await login(ctx, { email: learner.email, password: learner.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: {
        id: learner.id,
        name: "Ada Learner",
        email: learner.email,
        phone: "+1 555 0100",
        role: "learner",
        status: "active",
        createdAt: learner.createdAt.toISOString(),
        firebaseUid: null,
        isRegisteredByAdmin: true,
        passwordSetup: true,
      },
    });
    expectNoSecrets(response.body);
    expect(response.cookies.map((c) => c.name)).toEqual([
      "credo_session",
      SIGNED_IN_COOKIE,
      "credo_device",
    ]);
    expect(await countSessions(ctx, learner.id)).toBe(1);
  });

  it("signs an administrator in", async () => {
    const admin = await buildAdmin(ctx);
    const response = await login(ctx, { email: admin.email, password: admin.password });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ id: admin.id, role: "admin" });
    expectNoSecrets(response.body);
  });

  it("matches the email whatever its case and surrounding spaces", async () => {
    const learner = await buildLearner(ctx, { email: "mixed.case@example.com" });
    const response = await login(ctx, {
      email: "  Mixed.CASE@Example.com ",
      password: learner.password,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe("mixed.case@example.com");
  });

  it("answers an unknown email and a wrong password identically, and signs nobody in", async () => {
    const learner = await buildLearner(ctx);
    const wrongPassword = await login(ctx, { email: learner.email, password: "not the password" });
    const unknownEmail = await login(ctx, {
      email: "nobody@example.com",
      password: learner.password,
    });
    const noPasswordYet = await buildLearner(ctx, { password: null });
    const notSetUp = await login(ctx, { email: noPasswordYet.email, password: "anything-at-all" });
    for (const response of [wrongPassword, unknownEmail, notSetUp]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: MESSAGES.invalidCredentials,
        code: "auth.invalid_credentials",
      });
      expect(response.cookies).toEqual([]);
    }
    expect(await countSessions(ctx)).toBe(0);
    // Every kind of failure counts towards the throttle, so it cannot tell them apart either.
    expect(await countLoginFailures(ctx)).toBe(3);
  });

  it(`refuses a restricted learner with '${RESTRICTED}'`, async () => {
    const learner = await buildLearner(ctx, { status: "restricted" });
    const response = await login(ctx, { email: learner.email, password: learner.password });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: RESTRICTED, code: "auth.restricted" });
    expect(response.cookies).toEqual([]);
    expect(await countSessions(ctx)).toBe(0);
  });

  it("tells a guesser nothing about restriction: a wrong password is just invalid", async () => {
    const learner = await buildLearner(ctx, { status: "restricted" });
    const response = await login(ctx, { email: learner.email, password: "wrong-password" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      message: MESSAGES.invalidCredentials,
      code: "auth.invalid_credentials",
    });
  });

  it(`refuses a learner an administrator did not register with '${ACCESS_DENIED}'`, async () => {
    const learner = await buildLearner(ctx, { isRegisteredByAdmin: false });
    const response = await login(ctx, { email: learner.email, password: learner.password });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: ACCESS_DENIED, code: "auth.access_denied" });
    expect(response.cookies).toEqual([]);
    expect(await countSessions(ctx)).toBe(0);
  });

  it("uses the exact messages of SPEC section 5", () => {
    expect(MESSAGES.restricted).toBe(RESTRICTED);
    expect(MESSAGES.accessDenied).toBe(ACCESS_DENIED);
  });

  describe("validation", () => {
    it.each([
      [{ password: "secret1" }, "email", "Email is required"],
      [{ email: "", password: "secret1" }, "email", "Email is required"],
      [{ email: "not-an-email", password: "secret1" }, "email", "Enter a valid email address"],
      [
        { email: `${"a".repeat(250)}@example.com`, password: "secret1" },
        "email",
        "Email must be at most 254 characters",
      ],
      [{ email: "a@example.com" }, "password", "Password is required"],
      [{ email: "a@example.com", password: "" }, "password", "Password is required"],
      [
        { email: "a@example.com", password: "x".repeat(1025) },
        "password",
        "Password must be at most 1,024 characters",
      ],
      [{ email: "a@example.com", password: 123456 }, "password", "Password must be text"],
      [
        { email: "a@example.com", password: "secret1", rememberMe: "true" },
        "rememberMe",
        "Remember me must be yes or no",
      ],
    ])("answers %j with 400 naming the field in words", async (payload, path, message) => {
      const response = await login(ctx, payload);
      expect(response.statusCode).toBe(400);
      expect(expectErrorBody(response)).toEqual({
        message,
        code: "validation.invalid_body",
        path,
      });
      expect(await countLoginFailures(ctx)).toBe(0);
    });

    it("answers an identity-service sign-in with a clear message while Firebase is off", async () => {
      const response = await login(ctx, { email: "a@example.com", firebaseIdToken: "token" });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: "Firebase not configured",
        code: "auth.identity_not_configured",
      });
      expect(await countSessions(ctx)).toBe(0);
    });
  });

  describe("throttling", () => {
    async function failTimes(email: string, times: number, ip: string) {
      for (let i = 0; i < times; i++) {
        const response = await login(ctx, { email, password: `wrong-${i}` }, ip);
        expect(response.statusCode).toBe(401);
      }
    }

    it("locks an account from one address after 10 failures, even for the right password", async () => {
      const learner = await buildLearner(ctx);
      await failTimes(learner.email, 10, "10.0.1.1");
      const response = await login(
        ctx,
        { email: learner.email, password: learner.password },
        "10.0.1.1",
      );
      expect(response.statusCode).toBe(429);
      expect(response.json()).toEqual({
        message: MESSAGES.tooManyAttempts,
        code: "auth.throttled",
      });
      const retryAfter = Number(response.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(300);
      expect(response.cookies).toEqual([]);
      expect(await countSessions(ctx)).toBe(0);
      // A locked attempt is not even checked, so it adds nothing.
      expect(await countLoginFailures(ctx)).toBe(10);
    });

    it("lets the same account in from another address until 20 failures in all, then from none", async () => {
      const learner = await buildLearner(ctx);
      const other = await buildLearner(ctx);
      await failTimes(learner.email, 10, "10.0.2.1");
      expect(
        (await login(ctx, { email: learner.email, password: learner.password }, "10.0.2.1"))
          .statusCode,
      ).toBe(429);

      // Another address still gets in with the right password.
      const fromElsewhere = await login(
        ctx,
        { email: learner.email, password: learner.password },
        "10.0.2.2",
      );
      expect(fromElsewhere.statusCode).toBe(200);

      // 10 more failures from elsewhere make 20 for the account: now every address is refused.
      await failTimes(learner.email, 10, "10.0.2.2");
      for (const ip of ["10.0.2.1", "10.0.2.2", "10.0.2.3"]) {
        const response = await login(ctx, { email: learner.email, password: learner.password }, ip);
        expect(response.statusCode, ip).toBe(429);
        expect(response.json()).toEqual({
          message: MESSAGES.tooManyAttempts,
          code: "auth.throttled",
        });
        expect(response.headers["retry-after"]).toBeDefined();
      }

      // Other accounts behind the locked address still sign in.
      const neighbour = await login(
        ctx,
        { email: other.email, password: other.password },
        "10.0.2.1",
      );
      expect(neighbour.statusCode).toBe(200);
      expect(neighbour.json().user.id).toBe(other.id);
    });

    it("holds against a burst of concurrent guesses: at most 10 are checked", async () => {
      const learner = await buildLearner(ctx);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          login(ctx, { email: learner.email, password: `guess-${i}` }, "10.0.6.1"),
        ),
      );
      const checked = responses.filter((r) => r.statusCode === 401).length;
      const locked = responses.filter((r) => r.statusCode === 429);
      expect(checked).toBeLessThanOrEqual(10);
      expect(checked + locked.length).toBe(20);
      for (const response of locked) {
        expect(response.json()).toEqual({
          message: MESSAGES.tooManyAttempts,
          code: "auth.throttled",
        });
      }
      expect(await countLoginFailures(ctx)).toBe(checked);
    });

    it("does not count a right password refused for restriction as a failure", async () => {
      const learner = await buildLearner(ctx, { status: "restricted" });
      const response = await login(
        ctx,
        { email: learner.email, password: learner.password },
        "10.0.7.1",
      );
      expect(response.statusCode).toBe(403);
      expect(await countLoginFailures(ctx)).toBe(0);
    });

    it("throttles unknown emails the same way, so a lock reveals no account", async () => {
      await failTimes("ghost@example.com", 10, "10.0.3.1");
      const response = await login(ctx, { email: "ghost@example.com", password: "x" }, "10.0.3.1");
      expect(response.statusCode).toBe(429);
      expect(response.json()).toEqual({
        message: MESSAGES.tooManyAttempts,
        code: "auth.throttled",
      });
    });

    it("counts an email whatever its case as one account", async () => {
      const learner = await buildLearner(ctx, { email: "case.test@example.com" });
      for (let i = 0; i < 10; i++) {
        const email = i % 2 ? "CASE.TEST@example.com" : "case.test@EXAMPLE.com";
        expect((await login(ctx, { email, password: "nope-nope" }, "10.0.4.1")).statusCode).toBe(
          401,
        );
      }
      const response = await login(
        ctx,
        { email: learner.email, password: learner.password },
        "10.0.4.1",
      );
      expect(response.statusCode).toBe(429);
    });

    it("forgives an address's failures after it signs in successfully", async () => {
      const learner = await buildLearner(ctx);
      await failTimes(learner.email, 9, "10.0.5.1");
      const ok = await login(ctx, { email: learner.email, password: learner.password }, "10.0.5.1");
      expect(ok.statusCode).toBe(200);
      expect(await countLoginFailures(ctx)).toBe(0);
      await failTimes(learner.email, 9, "10.0.5.1");
      const stillOk = await login(
        ctx,
        { email: learner.email, password: learner.password },
        "10.0.5.1",
      );
      expect(stillOk.statusCode).toBe(200);
    });
  });
});
