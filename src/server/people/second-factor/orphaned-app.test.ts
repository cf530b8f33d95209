import { randomBytes } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../app";
import { buildAdmin } from "../../testing/factories";
import { anotherInstance, cookieFrom, type TestContext, useTestApp } from "../../testing/test-app";

let nowMs = Date.UTC(2026, 10, 30, 9, 0, 0);
const clock = () => new Date(nowMs);
const codeAt = (secret: string, ms = nowMs) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: ms });
const STEP = "/api/auth/second-factor";

function post(app: App, url: string, cookie?: string, payload?: object) {
  return app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });
}

function stepCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === "credo_second_step");
  if (!cookie) throw new Error(`no second-step cookie in ${response.statusCode} ${response.body}`);
  return `credo_second_step=${cookie.value}`;
}

/**
 * SECURITY.md: "losing the key orphans the apps set up under it (their owners sign in with a
 * passkey or a recovery code and add the app again)". A code typed for an orphaned app must be
 * refused as a wrong code (4xx), not crash the request.
 */
describe("an authenticator app sealed under a SECRETS_KEY the portal no longer has", () => {
  const ctx: TestContext = useTestApp({}, { clock });
  let rekeyed: App;
  beforeAll(async () => {
    rekeyed = await anotherInstance(ctx, {
      clock,
      env: { SECRETS_KEY: randomBytes(32).toString("base64") },
    });
  });
  afterAll(async () => {
    await rekeyed?.close();
  });

  it("answers a code at the second step and at a confirmation with a 4xx, not a 500", async () => {
    const user = await buildAdmin(ctx);
    const session = cookieFrom(
      await post(ctx.app, "/api/auth/login", undefined, {
        email: user.email,
        password: user.password,
      }),
    );
    const { secret } = (await post(ctx.app, "/api/second-factor/totp", session)).json();
    const added = await post(ctx.app, "/api/second-factor/factors", session, {
      method: "totp",
      code: codeAt(secret),
    });
    expect(added.statusCode).toBe(200);

    // The portal now runs with another key (the old one was lost or rotated).
    const pending = await post(rekeyed, "/api/auth/login", undefined, {
      email: user.email,
      password: user.password,
    });
    expect(pending.json().secondFactor.methods).toContain("totp");
    nowMs += 30_000;
    const verify = await post(rekeyed, `${STEP}/verify`, stepCookie(pending), {
      method: "totp",
      code: codeAt(secret),
    });
    expect(verify.statusCode, verify.body).toBe(401);
    expect(verify.json().code).toBe("mfa.code_invalid");

    // The profile's confirmation with a 6-digit code, likewise.
    const { factors } = (
      await rekeyed.inject({
        method: "GET",
        url: "/api/second-factor",
        headers: { cookie: session },
      })
    ).json();
    const confirm = await post(
      rekeyed,
      `/api/second-factor/factors/${factors[0].id}/remove`,
      session,
      {
        code: "123456",
      },
    );
    expect(confirm.statusCode, confirm.body).toBe(400);
    expect(confirm.json().code).toBe("mfa.confirmation_wrong");
  });
});
