import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../contract";
import { expectErrorBody } from "../../testing/errors";
import { buildAdmin, buildLearner } from "../../testing/factories";
import { allKeys, countSessions, countUsers, userByEmail, userById } from "../../testing/inspect";
import { cookieFrom, type TestContext, useTestApp } from "../../testing/test-app";
import { ROOM_LIMIT } from "./account-limits";
import { createAuthRepository } from "./auth.repository";
import { verifyPassword } from "./passwords";
import { hashSecret, newSecret } from "./tokens";

const ACCESS_DENIED = "Access denied. Only admin-registered learner emails are allowed.";
const RESTRICTED = "Your account has been restricted. Please contact the administrator.";
const INVITATION_INVALID =
  "This invitation link is no longer valid. Use Set Your Password to verify your email.";
const INVITATION_REQUIRED = "Please open the invitation link from your email to set your password.";

// Setup is rate limited per address and per email: give each request its own address,
// except in the test of that limit.
let addressCounter = 0;
const freshAddress = () =>
  `10.20.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

function setup(ctx: TestContext, payload: Record<string, unknown>, remoteAddress = freshAddress()) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/auth/setup-password",
    payload,
    remoteAddress,
  });
}

function login(ctx: TestContext, email: string, password: string) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    remoteAddress: freshAddress(),
  });
}

describe("POST /api/auth/setup-password (open mode)", () => {
  const ctx = useTestApp();

  it("sets a registered learner's first password and name, and signs them in", async () => {
    const learner = await buildLearner(ctx, { password: null, name: "From Admin" });
    const response = await setup(ctx, {
      email: learner.email,
      password: "first-password",
      name: "Chosen Name",
      firebaseUid: "demo-uid-123",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: expect.objectContaining({
        id: learner.id,
        email: learner.email,
        name: "Chosen Name",
        role: "learner",
        passwordSetup: true,
        firebaseUid: "demo-uid-123",
      }),
    });
    expect(allKeys(response.json()).filter((k) => /password/i.test(k))).toEqual(["passwordSetup"]);
    expect(response.body).not.toContain("scrypt");

    const row = await userById(ctx, learner.id);
    expect(row?.passwordSetup).toBe(true);
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword("first-password", row!.passwordHash!)).toBe(true);

    // Signed in at once, and the new password works for later sign-ins.
    const me = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: { cookie: cookieFrom(response) },
    });
    expect(me.json().user.id).toBe(learner.id);
    expect((await login(ctx, learner.email, "first-password")).statusCode).toBe(200);
  });

  it("finds the learner whatever the email's case", async () => {
    const learner = await buildLearner(ctx, { password: null, email: "upper.case@example.com" });
    const response = await setup(ctx, {
      email: "Upper.Case@EXAMPLE.com",
      password: "first-password",
      name: "Upper",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(learner.id);
  });

  it("never replaces an existing password: 409 'Password already set'", async () => {
    const learner = await buildLearner(ctx, { name: "Original" });
    const before = await userById(ctx, learner.id);
    const response = await setup(ctx, {
      email: learner.email,
      password: "takeover-password",
      name: "Attacker",
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: "Password already set",
      code: "auth.password_already_set",
    });
    expect(response.cookies).toEqual([]);
    expect(await userById(ctx, learner.id)).toEqual(before);
    expect(await countSessions(ctx)).toBe(0);
    expect((await login(ctx, learner.email, learner.password!)).statusCode).toBe(200);
    expect((await login(ctx, learner.email, "takeover-password")).statusCode).toBe(401);
  });

  it("refuses an administrator's email (setup is for learners) and keeps the password", async () => {
    const admin = await buildAdmin(ctx);
    const response = await setup(ctx, { email: admin.email, password: "takeover-1", name: "X" });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: ACCESS_DENIED, code: "auth.access_denied" });
    expect((await userById(ctx, admin.id))?.passwordHash).toBe(admin.passwordHash);
  });

  it(`refuses an unregistered email with '${ACCESS_DENIED}' and creates nothing`, async () => {
    await buildAdmin(ctx);
    const response = await setup(ctx, {
      email: "stranger@example.com",
      password: "some-password",
      name: "Stranger",
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: ACCESS_DENIED, code: "auth.access_denied" });
    expect(await userByEmail(ctx, "stranger@example.com")).toBeUndefined();
    expect(await countUsers(ctx)).toBe(1);
    expect(await countSessions(ctx)).toBe(0);
  });

  it("refuses a learner an administrator did not register", async () => {
    const learner = await buildLearner(ctx, { password: null, isRegisteredByAdmin: false });
    const before = await userById(ctx, learner.id);
    const response = await setup(ctx, {
      email: learner.email,
      password: "some-password",
      name: "X",
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: ACCESS_DENIED, code: "auth.access_denied" });
    expect(await userById(ctx, learner.id)).toEqual(before);
  });

  it("refuses a restricted learner and changes nothing", async () => {
    const learner = await buildLearner(ctx, { password: null, status: "restricted" });
    const before = await userById(ctx, learner.id);
    const response = await setup(ctx, {
      email: learner.email,
      password: "some-password",
      name: "X",
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: RESTRICTED, code: "auth.restricted" });
    expect(await userById(ctx, learner.id)).toEqual(before);
    expect(await countSessions(ctx)).toBe(0);
  });

  it("lets exactly one of two concurrent setups win; the other gets 409", async () => {
    const learner = await buildLearner(ctx, { password: null });
    const responses = await Promise.all([
      setup(ctx, { email: learner.email, password: "password-one", name: "One" }),
      setup(ctx, { email: learner.email, password: "password-two", name: "Two" }),
    ]);
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = responses.find((r) => r.statusCode === 200)!;
    const loser = responses.find((r) => r.statusCode === 409)!;
    expect(loser.json()).toEqual({
      message: MESSAGES.passwordAlreadySet,
      code: "auth.password_already_set",
    });
    const winnerName = winner.json().user.name as string;
    const row = await userById(ctx, learner.id);
    expect(row?.name).toBe(winnerName);
    const [winning, losing] =
      winnerName === "One" ? ["password-one", "password-two"] : ["password-two", "password-one"];
    expect(await verifyPassword(winning, row!.passwordHash!)).toBe(true);
    expect(await verifyPassword(losing, row!.passwordHash!)).toBe(false);
    expect(await countSessions(ctx, learner.id)).toBe(1);
  });

  describe("validation", () => {
    it.each([
      [{ password: "secret1", name: "N" }, "email", "Email is required"],
      [{ email: "nope", password: "secret1", name: "N" }, "email", "Enter a valid email address"],
      [
        { email: "a@example.com", password: "12345", name: "N" },
        "password",
        "Password must be at least 6 characters long.",
      ],
      [{ email: "a@example.com", name: "N" }, "password", "Password is required"],
      [{ email: "a@example.com", password: "secret1" }, "name", "Name is required"],
      [{ email: "a@example.com", password: "secret1", name: "   " }, "name", "Name is required"],
    ])("answers %j with 400 naming the field, changing nothing", async (payload, path, message) => {
      const learner = await buildLearner(ctx, { password: null, email: "a@example.com" });
      const before = await userById(ctx, learner.id);
      const response = await setup(ctx, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ path, message });
      expect(await userById(ctx, learner.id)).toEqual(before);
    });
  });

  it("is rate limited per address at a classroom's size: one more attempt in 15 minutes gets 429", async () => {
    const address = "10.99.0.1";
    for (let i = 0; i < ROOM_LIMIT.max; i++) {
      const response = await setup(
        ctx,
        { email: `nobody${i}@example.com`, password: "secret1", name: "N" },
        address,
      );
      expect(response.statusCode).toBe(403);
    }
    const learner = await buildLearner(ctx, { password: null });
    const limited = await setup(
      ctx,
      { email: learner.email, password: "secret1", name: "N" },
      address,
    );
    expect(limited.statusCode).toBe(429);
    expectErrorBody(limited);
    expect(limited.json().message).toMatch(/rate limit/i);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await userById(ctx, learner.id))?.passwordSetup).toBe(false);
  });
});

describe("POST /api/auth/setup-password (invite mode)", () => {
  const ctx = useTestApp({ PASSWORD_SETUP_MODE: "invite" });

  async function invite(userId: string, expiresInMs = 60 * 60 * 1000) {
    const token = newSecret();
    await createAuthRepository(ctx.database.db).insertToken({
      tokenHash: hashSecret(token),
      userId,
      kind: "invite",
      expiresAt: new Date(Date.now() + expiresInMs),
    });
    return token;
  }

  it("refuses setup without the emailed invitation and changes nothing", async () => {
    const learner = await buildLearner(ctx, { password: null });
    const before = await userById(ctx, learner.id);
    const response = await setup(ctx, { email: learner.email, password: "secret1", name: "N" });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: INVITATION_REQUIRED,
      code: "auth.invitation_required",
    });
    expect(await userById(ctx, learner.id)).toEqual(before);
    expect(await countSessions(ctx)).toBe(0);
  });

  it("refuses a wrong, expired, or someone else's invitation, without using it up", async () => {
    const learner = await buildLearner(ctx, { password: null });
    const other = await buildLearner(ctx, { password: null });
    const othersToken = await invite(other.id);
    const expired = await invite(learner.id, -1000);
    for (const inviteToken of ["not-a-token", expired, othersToken]) {
      const response = await setup(ctx, {
        email: learner.email,
        password: "secret1",
        name: "N",
        inviteToken,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        message: INVITATION_REQUIRED,
        code: "auth.invitation_required",
      });
    }
    expect((await userById(ctx, learner.id))?.passwordSetup).toBe(false);
    // The other learner's invitation still works for them.
    const theirs = await setup(ctx, {
      email: other.email,
      password: "secret1",
      name: "Other",
      inviteToken: othersToken,
    });
    expect(theirs.statusCode).toBe(200);
  });

  it("sets the password with a valid invitation, which then cannot be used again", async () => {
    const learner = await buildLearner(ctx, { password: null });
    const inviteToken = await invite(learner.id);
    const response = await setup(ctx, {
      email: learner.email,
      password: "invited-password",
      name: "Invited",
      inviteToken,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ id: learner.id, passwordSetup: true });
    const replay = await setup(ctx, {
      email: learner.email,
      password: "replayed-password",
      name: "Replay",
      inviteToken,
    });
    expect(replay.statusCode).toBe(409);
    expect((await login(ctx, learner.email, "invited-password")).statusCode).toBe(200);
    expect((await login(ctx, learner.email, "replayed-password")).statusCode).toBe(401);
  });

  it("tells the holder of a live invitation whom it is for, and nobody else", async () => {
    const learner = await buildLearner(ctx, { password: null, name: "Named By Admin" });
    const other = await buildLearner(ctx, { password: null });
    const lookup = (token: unknown) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/auth/invitation",
        payload: { token },
        remoteAddress: freshAddress(),
      });
    const token = await invite(learner.id);
    const found = await lookup(token);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ email: learner.email, name: "Named By Admin" });

    // Unknown, expired, restricted or already used: one answer, naming nobody.
    const expired = await invite(other.id, -1000);
    const restrictedLearner = await buildLearner(ctx, { password: null, status: "restricted" });
    const restricted = await invite(restrictedLearner.id);
    for (const bad of ["not-a-token", expired, restricted]) {
      const response = await lookup(bad);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        message: INVITATION_INVALID,
        code: "auth.invitation_invalid",
      });
    }
    expect((await lookup("")).statusCode).toBe(400);
    expect((await lookup("x".repeat(257))).statusCode).toBe(400);

    // Looking it up does not use it up; setting the password does.
    const set = await setup(ctx, {
      email: learner.email,
      password: "invited-password",
      name: "Named By Admin",
      inviteToken: token,
    });
    expect(set.statusCode).toBe(200);
    const used = await lookup(token);
    expect(used.statusCode).toBe(404);
    expect(used.body).not.toContain(learner.email);
  });

  it("publishes the mode so the web client can explain it", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/config" });
    expect(response.json().passwordSetupMode).toBe("invite");
  });
});
