import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../contract";
import { expectErrorBody, refusalText } from "../../testing/errors";
import { buildAdmin, buildLearner } from "../../testing/factories";
import { allKeys, countSessions, countUsers, userByEmail, userById } from "../../testing/inspect";
import { useLoopback } from "../../testing/loopback";
import { cookieFrom, TEST_ADMIN_KEY, type TestContext, useTestApp } from "../../testing/test-app";
import { ADMIN_KEY_GUESS_LIMIT } from "./account-limits";
import { verifyPassword } from "./passwords";

// Admin setup is rate limited per address (10 per 15 minutes): give each request its own
// address, except in the test of that limit.
let addressCounter = 0;
const freshAddress = () =>
  `10.30.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

const newAdmin = {
  email: "Head.Admin@Example.com",
  password: "admin-password",
  name: "Head Admin",
};

function setupAdmin(
  ctx: TestContext,
  payload: Record<string, unknown>,
  remoteAddress = freshAddress(),
) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/auth/setup-admin-password",
    payload,
    remoteAddress,
  });
}

describe("POST /api/auth/setup-admin-password with ADMIN_SETUP_KEY", () => {
  const ctx = useTestApp();

  it("creates an administrator with the right key and signs them in", async () => {
    const response = await setupAdmin(ctx, { ...newAdmin, adminKey: TEST_ADMIN_KEY });
    expect(response.statusCode).toBe(200);
    const { user } = response.json();
    expect(user).toMatchObject({
      email: "head.admin@example.com",
      name: "Head Admin",
      role: "admin",
      status: "active",
      passwordSetup: true,
      isRegisteredByAdmin: true,
    });
    expect(allKeys(response.json()).filter((k) => /password/i.test(k))).toEqual(["passwordSetup"]);
    expect(response.body).not.toContain("scrypt");

    const row = await userByEmail(ctx, "head.admin@example.com");
    expect(row?.id).toBe(user.id);
    expect(await verifyPassword("admin-password", row!.passwordHash!)).toBe(true);

    const me = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: { cookie: cookieFrom(response) },
    });
    expect(me.json().user).toMatchObject({ id: user.id, role: "admin" });
    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "head.admin@example.com", password: "admin-password" },
    });
    expect(login.statusCode).toBe(200);
  });

  it.each([
    ["a wrong key", "wrong-admin-key"],
    ["the key with a different case", TEST_ADMIN_KEY.toUpperCase()],
    ["a prefix of the key", TEST_ADMIN_KEY.slice(0, -1)],
    ["the key with extra characters", `${TEST_ADMIN_KEY}x`],
  ])("refuses %s with 403 and creates nothing", async (_label, adminKey) => {
    const response = await setupAdmin(ctx, { ...newAdmin, adminKey });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: MESSAGES.invalidAdminKey,
      code: "auth.invalid_admin_key",
    });
    expect(response.cookies).toEqual([]);
    expect(await countUsers(ctx)).toBe(0);
    expect(await countSessions(ctx)).toBe(0);
  });

  it("keeps working with a configured key once administrators exist", async () => {
    await buildAdmin(ctx);
    const response = await setupAdmin(ctx, { ...newAdmin, adminKey: TEST_ADMIN_KEY });
    expect(response.statusCode).toBe(200);
    expect(await countUsers(ctx)).toBe(2);
  });

  it("answers 409 when the email is taken, and leaves that account alone", async () => {
    const learner = await buildLearner(ctx, { email: "taken@example.com" });
    const before = await userById(ctx, learner.id);
    const response = await setupAdmin(ctx, {
      ...newAdmin,
      email: "TAKEN@example.com",
      adminKey: TEST_ADMIN_KEY,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: MESSAGES.emailTaken, code: "auth.email_taken" });
    expect(response.cookies).toEqual([]);
    expect(await userById(ctx, learner.id)).toEqual(before);
    expect(await countUsers(ctx)).toBe(1);
    expect(await countSessions(ctx)).toBe(0);
  });

  it("answers 409 for an existing administrator's email too", async () => {
    const admin = await buildAdmin(ctx);
    const response = await setupAdmin(ctx, {
      ...newAdmin,
      email: admin.email,
      adminKey: TEST_ADMIN_KEY,
    });
    expect(response.statusCode).toBe(409);
    expect((await userById(ctx, admin.id))?.passwordHash).toBe(admin.passwordHash);
  });

  it.each([
    [{ email: "a@example.com", password: "secret1", name: "N" }, /^adminKey: /],
    [
      { email: "a@example.com", password: "secret1", name: "N", adminKey: "" },
      /^adminKey: Admin key is required$/,
    ],
    [
      { email: "a@example.com", password: "12345", name: "N", adminKey: TEST_ADMIN_KEY },
      /^password: Password must be at least 6 characters long\.$/,
    ],
    [{ email: "bad", password: "secret1", name: "N", adminKey: TEST_ADMIN_KEY }, /^email: /],
    [{ email: "a@example.com", password: "secret1", adminKey: TEST_ADMIN_KEY }, /^name: /],
  ])("answers %j with 400 naming the field and creates nothing", async (payload, message) => {
    const response = await setupAdmin(ctx, payload);
    expect(response.statusCode).toBe(400);
    expect(refusalText(response)).toMatch(message);
    expect(await countUsers(ctx)).toBe(0);
  });

  it("is rate limited: after 10 attempts in 15 minutes from one address, 429 even with the key", async () => {
    const address = "10.99.1.1";
    for (let i = 0; i < 10; i++) {
      const response = await setupAdmin(ctx, { ...newAdmin, adminKey: `guess-${i}` }, address);
      expect(response.statusCode).toBe(403);
    }
    const limited = await setupAdmin(ctx, { ...newAdmin, adminKey: TEST_ADMIN_KEY }, address);
    expect(limited.statusCode).toBe(429);
    expectErrorBody(limited);
    expect(limited.json().message).toMatch(/rate limit/i);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(await countUsers(ctx)).toBe(0);

    // The limit is per address: another address still works.
    const elsewhere = await setupAdmin(ctx, { ...newAdmin, adminKey: TEST_ADMIN_KEY });
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe("admin key guessing spread over many addresses", () => {
  const logLines: string[] = [];
  const ctx = useTestApp({}, { logLines });
  // Real sockets on their own loopback addresses, the guesses all in flight together.
  const send = useLoopback(ctx);
  const guess = (address: string, adminKey: string) =>
    send(address, {
      method: "POST",
      url: "/api/auth/setup-admin-password",
      payload: { ...newAdmin, adminKey },
    });

  it("is limited for all addresses together, with an alert in the log", async () => {
    const { max } = ADMIN_KEY_GUESS_LIMIT;
    // Ten guesses from each of three addresses stay under the per-address limit.
    const guesses = await Promise.all(
      Array.from({ length: max }, (_, i) => guess(`127.0.0.${2 + (i % 3)}`, `guess-${i}`)),
    );
    expect(guesses.map((response) => response.statusCode)).toEqual(Array(max).fill(403));
    expect(logLines.join("")).not.toContain("auth.admin.setup.alert");
    const refused = await guess("127.0.0.5", `guess-${max}`);
    expect(refused.statusCode).toBe(429);
    const alert = logLines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.event === "auth.admin.setup.alert");
    expect(alert).toMatchObject({ level: 50, ip: "127.0.0.5" });
    expect(await countUsers(ctx)).toBe(0);
    // The right key still works: the guesses locked nobody out.
    const owner = await guess("127.0.0.6", TEST_ADMIN_KEY);
    expect(owner.statusCode).toBe(200);
  });
});

describe("POST /api/auth/setup-admin-password with a generated one-time key", () => {
  const ctx = useTestApp(
    { ADMIN_SETUP_KEY: "" },
    { adminSetupKey: { key: "generated-one-time-key", generated: true } },
  );

  it("creates the first administrator", async () => {
    const response = await setupAdmin(ctx, { ...newAdmin, adminKey: "generated-one-time-key" });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.role).toBe("admin");
  });

  it("stops working once an administrator exists, and creates nothing", async () => {
    await buildAdmin(ctx);
    const response = await setupAdmin(ctx, { ...newAdmin, adminKey: "generated-one-time-key" });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: MESSAGES.invalidAdminKey,
      code: "auth.invalid_admin_key",
    });
    expect(await userByEmail(ctx, "head.admin@example.com")).toBeUndefined();
    expect(await countUsers(ctx)).toBe(1);
  });

  it("does not count learners as administrators", async () => {
    await buildLearner(ctx);
    const response = await setupAdmin(ctx, { ...newAdmin, adminKey: "generated-one-time-key" });
    expect(response.statusCode).toBe(200);
  });

  it("creates exactly one administrator when two setups race with the key", async () => {
    const responses = await Promise.all([
      setupAdmin(ctx, {
        ...newAdmin,
        email: "first@example.com",
        adminKey: "generated-one-time-key",
      }),
      setupAdmin(ctx, {
        ...newAdmin,
        email: "second@example.com",
        adminKey: "generated-one-time-key",
      }),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 403]);
    expect(await countUsers(ctx)).toBe(1);
  });
});

describe("POST /api/auth/setup-admin-password without any key (production, no ADMIN_SETUP_KEY)", () => {
  const ctx = useTestApp({ NODE_ENV: "production", ADMIN_SETUP_KEY: "" });

  it("is disabled, says how to enable it, and creates nothing", async () => {
    const response = await setupAdmin(ctx, { ...newAdmin, adminKey: "anything" });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: "Administrator setup is disabled: set ADMIN_SETUP_KEY on the server.",
      code: "auth.admin_setup_disabled",
    });
    expect(await countUsers(ctx)).toBe(0);
  });
});
