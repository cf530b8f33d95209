import type { LightMyRequestResponse } from "fastify";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { buildAdmin } from "../../testing/factories";
import { countSessions } from "../../testing/inspect";
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
