import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { buildAdmin } from "../../testing/factories";
import { createSoftwareAuthenticator } from "../../testing/software-authenticator";
import { cookieFrom, type TestContext, useTestApp } from "../../testing/test-app";

const RP = { id: "localhost", origin: "http://localhost:5000" };
const nowMs = Date.UTC(2026, 10, 30, 9, 0, 0);
const clock = () => new Date(nowMs);
const codeAt = (secret: string, ms = nowMs) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: ms });

function post(ctx: TestContext, url: string, cookie?: string, payload?: object) {
  return ctx.app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });
}

describe("the organisation's rule keeps the last factor in place", () => {
  const ctx = useTestApp({}, { clock });

  it("even when both factors are removed at once", async () => {
    const user = await buildAdmin(ctx);
    const session = cookieFrom(
      await post(ctx, "/api/auth/login", undefined, { email: user.email, password: user.password }),
    );
    const { secret } = (await post(ctx, "/api/second-factor/totp", session)).json();
    expect(
      (
        await post(ctx, "/api/second-factor/factors", session, {
          method: "totp",
          code: codeAt(secret),
        })
      ).statusCode,
    ).toBe(200);
    const authenticator = createSoftwareAuthenticator(RP);
    const options = (await post(ctx, "/api/second-factor/passkey-options", session)).json();
    expect(
      (
        await post(ctx, "/api/second-factor/factors", session, {
          method: "passkey",
          name: "Key",
          response: authenticator.register(options),
        })
      ).statusCode,
    ).toBe(200);
    const rule = await ctx.app.inject({
      method: "PUT",
      url: "/api/admin/second-factor/policy",
      payload: { required: true },
      headers: { cookie: session },
    });
    expect(rule.statusCode).toBe(200);

    const { factors } = (
      await ctx.app.inject({
        method: "GET",
        url: "/api/second-factor",
        headers: { cookie: session },
      })
    ).json();
    expect(factors).toHaveLength(2);
    const answers = await Promise.all(
      factors.map((f: { id: string }) =>
        post(ctx, `/api/second-factor/factors/${f.id}/remove`, session, {
          password: user.password,
        }),
      ),
    );
    const after = (
      await ctx.app.inject({
        method: "GET",
        url: "/api/second-factor",
        headers: { cookie: session },
      })
    ).json();
    expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join("\n")).toEqual([
      200, 409,
    ]);
    expect(after.factors).toHaveLength(1);
  });
});
