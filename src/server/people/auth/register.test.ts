import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../contract";
import { refusalText } from "../../testing/errors";
import { buildAdmin, buildLearner, signIn } from "../../testing/factories";
import { allKeys, countUsers, userByEmail, userById } from "../../testing/inspect";
import { type TestContext, useTestApp } from "../../testing/test-app";

/** The body the web client sends (SPEC section 7). */
const specBody = {
  firebaseUid: "temp-1700000000000",
  email: "New.Learner@Example.com",
  name: "New Learner",
  role: "learner",
  phone: "+44 20 7946 0000",
  status: "active",
  isRegisteredByAdmin: true,
  passwordSetup: false,
};

function register(ctx: TestContext, payload: Record<string, unknown>, cookie?: string) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload,
    headers: cookie ? { cookie } : {},
  });
}

function post(ctx: TestContext, url: string, payload: Record<string, unknown>) {
  return ctx.app.inject({ method: "POST", url, payload });
}

describe("POST /api/auth/register", () => {
  const ctx = useTestApp();

  async function adminCookie() {
    return signIn(ctx, await buildAdmin(ctx));
  }

  it("lets an administrator pre-register a learner and returns the user", async () => {
    const response = await register(ctx, specBody, await adminCookie());
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toEqual({
      id: expect.any(String),
      name: "New Learner",
      email: "new.learner@example.com",
      phone: "+44 20 7946 0000",
      role: "learner",
      status: "active",
      createdAt: expect.any(String),
      firebaseUid: null,
      isRegisteredByAdmin: true,
      passwordSetup: false,
    });
    expect(allKeys(user).filter((k) => /password/i.test(k))).toEqual(["passwordSetup"]);
    expect(new Date(user.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const row = await userByEmail(ctx, "new.learner@example.com");
    expect(row).toMatchObject({
      id: user.id,
      role: "learner",
      status: "active",
      isRegisteredByAdmin: true,
      passwordSetup: false,
      passwordHash: null,
    });
  });

  it("accepts the minimal body (email and name) and stores an empty phone as none", async () => {
    const cookie = await adminCookie();
    const minimal = await register(ctx, { email: "min@example.com", name: "Min" }, cookie);
    expect(minimal.statusCode).toBe(201);
    expect(minimal.json()).toMatchObject({ phone: null, role: "learner", passwordSetup: false });
    const emptyPhone = await register(
      ctx,
      { email: "empty@example.com", name: "Empty", phone: "" },
      cookie,
    );
    expect(emptyPhone.json().phone).toBeNull();
  });

  it("refuses anonymous callers with 401 and creates nothing", async () => {
    const response = await register(ctx, specBody);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: MESSAGES.notSignedIn, code: "auth.not_signed_in" });
    expect(await countUsers(ctx)).toBe(0);
  });

  it("refuses learners with 403 and creates nothing", async () => {
    const learner = await buildLearner(ctx);
    const response = await register(ctx, specBody, await signIn(ctx, learner));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: MESSAGES.forbidden, code: "auth.forbidden" });
    expect(await countUsers(ctx)).toBe(1);
  });

  it("answers 409 for a taken email, whatever its case, and leaves that account alone", async () => {
    const existing = await buildLearner(ctx, { email: "new.learner@example.com", name: "Kept" });
    const before = await userById(ctx, existing.id);
    const response = await register(ctx, specBody, await adminCookie());
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: MESSAGES.emailTaken, code: "auth.email_taken" });
    expect(await userById(ctx, existing.id)).toEqual(before);
    expect(await countUsers(ctx)).toBe(2);
  });

  it("answers 409 for an administrator's email", async () => {
    const cookie = await adminCookie();
    const other = await buildAdmin(ctx);
    const response = await register(ctx, { email: other.email, name: "X" }, cookie);
    expect(response.statusCode).toBe(409);
    expect((await userById(ctx, other.id))?.role).toBe("admin");
  });

  it.each([
    ["role admin", { role: "admin" }, /^role: /],
    ["status restricted", { status: "restricted" }, /^status: /],
    ["isRegisteredByAdmin false", { isRegisteredByAdmin: false }, /^isRegisteredByAdmin: /],
    ["passwordSetup true", { passwordSetup: true }, /^passwordSetup: /],
    ["an invalid email", { email: "not-an-email" }, /^email: Enter a valid email address$/],
    ["no email", { email: undefined }, /^email: /],
    ["a blank name", { name: "  " }, /^name: Name is required$/],
    ["no name", { name: undefined }, /^name: /],
  ])(
    "refuses %s with 400 naming the field and creates nothing",
    async (_label, change, message) => {
      const cookie = await adminCookie();
      const response = await register(ctx, { ...specBody, ...change }, cookie);
      expect(response.statusCode).toBe(400);
      expect(refusalText(response)).toMatch(message);
      expect(await countUsers(ctx)).toBe(1);
    },
  );

  it("makes the learner able to set a password and sign in: the whole first-time flow", async () => {
    await register(ctx, specBody, await adminCookie());
    const email = "new.learner@example.com";

    const registered = await post(ctx, "/api/auth/check-email", { email });
    expect(registered.json()).toEqual({ isRegistered: true });
    const beforeSetup = await post(ctx, "/api/auth/check-password-setup", { email });
    expect(beforeSetup.json()).toEqual({ passwordSetup: false });

    const setup = await post(ctx, "/api/auth/setup-password", {
      email,
      password: "learner-password",
      name: "New Learner",
      firebaseUid: "demo-123",
    });
    expect(setup.statusCode).toBe(200);

    const afterSetup = await post(ctx, "/api/auth/check-password-setup", { email });
    expect(afterSetup.json()).toEqual({ passwordSetup: true });
    const login = await post(ctx, "/api/auth/login", { email, password: "learner-password" });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ email, role: "learner" });
  });
});

describe("POST /api/auth/check-email and /api/auth/check-password-setup", () => {
  const ctx = useTestApp();

  it("reports registered only for learners an administrator registered", async () => {
    const registered = await buildLearner(ctx, { email: "registered@example.com", password: null });
    const selfMade = await buildLearner(ctx, { isRegisteredByAdmin: false });
    const admin = await buildAdmin(ctx);
    const restricted = await buildLearner(ctx, { status: "restricted" });
    const cases: [string, boolean][] = [
      [registered.email, true],
      ["REGISTERED@Example.com", true],
      [restricted.email, true],
      [selfMade.email, false],
      [admin.email, false],
      ["unknown@example.com", false],
    ];
    for (const [email, isRegistered] of cases) {
      const response = await post(ctx, "/api/auth/check-email", { email });
      expect(response.statusCode, email).toBe(200);
      expect(response.json(), email).toEqual({ isRegistered });
    }
  });

  it("reports whether the password is already set, false for unknown emails", async () => {
    const withPassword = await buildLearner(ctx);
    const withoutPassword = await buildLearner(ctx, { password: null });
    const cases: [string, boolean][] = [
      [withPassword.email, true],
      [withPassword.email.toUpperCase(), true],
      [withoutPassword.email, false],
      ["unknown@example.com", false],
    ];
    for (const [email, passwordSetup] of cases) {
      const response = await post(ctx, "/api/auth/check-password-setup", { email });
      expect(response.statusCode, email).toBe(200);
      expect(response.json(), email).toEqual({ passwordSetup });
    }
  });

  it("answers an invalid email with 400 naming the field", async () => {
    for (const url of ["/api/auth/check-email", "/api/auth/check-password-setup"]) {
      const response = await post(ctx, url, { email: "nope" });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: "Enter a valid email address",
        code: "validation.invalid_body",
        path: "email",
      });
    }
  });

  it("answers with nothing but the boolean", async () => {
    const learner = await buildLearner(ctx);
    const response = await post(ctx, "/api/auth/check-email", { email: learner.email });
    expect(Object.keys(response.json())).toEqual(["isRegistered"]);
    const setup = await post(ctx, "/api/auth/check-password-setup", { email: learner.email });
    expect(Object.keys(setup.json())).toEqual(["passwordSetup"]);
  });
});
