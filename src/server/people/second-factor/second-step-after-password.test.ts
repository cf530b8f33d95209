import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { buildAdmin } from "../../testing/factories";
import { countSessions } from "../../testing/inspect";
import { leafParts, outboxMessages } from "../../testing/mail";
import { cookieFrom, type TestContext, useTestApp } from "../../testing/test-app";

const nowMs = Date.UTC(2026, 10, 30, 9, 0, 0);
const clock = () => new Date(nowMs);
const codeAt = (secret: string, ms = nowMs) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: ms });
const STEP = "/api/auth/second-factor";

function post(ctx: TestContext, url: string, cookie?: string, payload?: object) {
  return ctx.app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });
}
const login = (ctx: TestContext, user: { email: string; password: string | null }) =>
  post(ctx, "/api/auth/login", undefined, { email: user.email, password: user.password });

function stepCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === "credo_second_step");
  if (!cookie) throw new Error(`no second-step cookie in ${response.statusCode} ${response.body}`);
  return `credo_second_step=${cookie.value}`;
}

async function adminWithApp(ctx: TestContext) {
  const user = await buildAdmin(ctx);
  const session = cookieFrom(await login(ctx, user));
  const { secret } = (await post(ctx, "/api/second-factor/totp", session)).json();
  const added = await post(ctx, "/api/second-factor/factors", session, {
    method: "totp",
    code: codeAt(secret),
  });
  expect(added.statusCode).toBe(200);
  return { user, session, secret, codes: added.json().newRecoveryCodes as string[] };
}

/** The reset link's token, as the mailbox owner (or whoever reads the mailbox) sees it. */
async function resetTokenFor(ctx: TestContext, email: string): Promise<string> {
  const asked = await post(ctx, "/api/auth/reset-password", undefined, { email });
  expect(asked.statusCode).toBe(200);
  for (let i = 0; i < 100; i += 1) {
    const mail = outboxMessages(join(ctx.dataDir, "outbox")).find((m) =>
      m.file.endsWith(`-${email}.eml`),
    );
    if (mail) {
      const text = leafParts(mail.mime)
        .map((p) => p.body.toString("utf8"))
        .join("\n");
      const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
      if (token) return token;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no reset mail");
}

describe("a sign-in waiting for its second step", () => {
  const ctx = useTestApp({}, { clock });

  it("cannot finish once the owner changes the password it began with", async () => {
    const { user, session, codes } = await adminWithApp(ctx);
    // Someone who learnt the old password (and a recovery code from the owner's printout)
    // gives the password: the sign-in waits for its second step.
    const attackerStep = stepCookie(await login(ctx, user));

    // The owner, warned, changes the password: every other session is to end.
    const changed = await ctx.app.inject({
      method: "PUT",
      url: "/api/auth/profile",
      headers: { cookie: session },
      payload: { name: user.name, currentPassword: user.password, newPassword: "brand-new-pass" },
    });
    expect(changed.statusCode).toBe(200);
    expect(await countSessions(ctx, user.id)).toBe(1);

    // The step the old password opened still starts a session.
    const finished = await post(ctx, `${STEP}/verify`, attackerStep, {
      method: "recovery",
      code: codes[0],
    });
    expect(finished.statusCode, finished.body).toBe(401);
    expect(await countSessions(ctx, user.id)).toBe(1);
  });

  it("cannot finish a sign-in once the owner ends the other sessions", async () => {
    const { user, session, codes } = await adminWithApp(ctx);
    const elsewhere = stepCookie(await login(ctx, user));
    const ended = await post(ctx, "/api/auth/sessions/end-others", session);
    expect(ended.statusCode).toBe(200);
    const finished = await post(ctx, `${STEP}/verify`, elsewhere, {
      method: "recovery",
      code: codes[0],
    });
    expect(finished.statusCode, finished.body).toBe(401);
    expect(await countSessions(ctx, user.id)).toBe(1);
  });
});

const sessionCookieOf = (r: LightMyRequestResponse) =>
  r.cookies.find((c) => c.name === "credo_session");

describe("a password reset and an administrator's second factor", () => {
  const ctx = useTestApp({}, { clock });

  it("does not sign an administrator with an authenticator app in on the reset link alone", async () => {
    const { user } = await adminWithApp(ctx);
    // The password alone does not start a session: a second step is pending.
    const pending = await login(ctx, user);
    expect(Object.keys(pending.json())).toEqual(["secondFactor"]);

    // Whoever reads the admin's mailbox: the reset link, no authenticator app.
    const token = await resetTokenFor(ctx, user.email);
    const reset = await post(ctx, "/api/auth/reset-password/confirm", undefined, {
      token,
      password: "attacker-chose-this",
    });
    // The password is set, and the sign-in waits for the second step as a password's does.
    expect(reset.statusCode).toBe(200);
    expect(Object.keys(reset.json())).toEqual(["secondFactor"]);
    expect(sessionCookieOf(reset), reset.body).toBeUndefined();
    expect(await countSessions(ctx, user.id)).toBe(0);
  });

  it("signs the administrator in once the second step after a reset succeeds", async () => {
    const { user, secret } = await adminWithApp(ctx);
    const token = await resetTokenFor(ctx, user.email);
    const reset = await post(ctx, "/api/auth/reset-password/confirm", undefined, {
      token,
      password: "owner-chose-this",
    });
    const step = reset.cookies.find((c) => c.name === "credo_second_step");
    expect(step).toBeDefined();
    const verified = await post(
      ctx,
      "/api/auth/second-factor/verify",
      `credo_second_step=${step!.value}`,
      { method: "totp", code: codeAt(secret, nowMs + 30_000) },
    );
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().user.email).toBe(user.email);
    expect(sessionCookieOf(verified)).toBeDefined();
  });

  it("does not let a reset skip the factor the organisation requires of every administrator", async () => {
    const { session } = await adminWithApp(ctx);
    const required = await ctx.app.inject({
      method: "PUT",
      url: "/api/admin/second-factor/policy",
      payload: { required: true },
      headers: { cookie: session },
    });
    expect(required.statusCode).toBe(200);
    const newcomer = await buildAdmin(ctx);
    // Signing in with the password asks the newcomer to set a factor up first.
    expect((await login(ctx, newcomer)).json().secondFactor).toMatchObject({
      setupRequired: true,
    });
    const token = await resetTokenFor(ctx, newcomer.email);
    const reset = await post(ctx, "/api/auth/reset-password/confirm", undefined, {
      token,
      password: "new-password-1",
    });
    expect(reset.json().secondFactor).toMatchObject({ setupRequired: true });
    expect(sessionCookieOf(reset), reset.body).toBeUndefined();
    expect(await countSessions(ctx, newcomer.id)).toBe(0);
  });
});
