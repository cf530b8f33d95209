import { describe, expect, it } from "vitest";
import { LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP, LOGIN_WINDOW_MS } from "../../../contract";
import { quickAdmin } from "../../testing/learning";
import { cookieHeader, type SendFrom, useLoopback } from "../../testing/loopback";
import { useTestApp } from "../../testing/test-app";

// Real sockets on their own loopback addresses (127.0.0.2, …), TRUST_PROXY off: the
// addresses the throttle counts are the ones the server really saw.
function login(send: SendFrom, email: string, password: string, address: string, cookie?: string) {
  return send(address, {
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    headers: cookie ? { cookie } : {},
  });
}

/** Ten wrong passwords from each of two attackers' addresses: past the account-wide 20. */
async function guessFromTwoAddresses(send: SendFrom, email: string) {
  for (const address of ["127.0.0.2", "127.0.0.3"]) {
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP; i++) {
      expect((await login(send, email, `guess-${i}`, address)).statusCode).toBe(401);
    }
  }
  expect((await login(send, email, "one-more-guess", "127.0.0.4")).statusCode).toBe(429);
}

for (const mode of ["development", "production"] as const) {
  describe(`device cookies (${mode})`, () => {
    const ctx = useTestApp(mode === "production" ? { NODE_ENV: "production" } : {});
    const send = useLoopback(ctx);
    const name = mode === "production" ? "__Host-credo_device" : "credo_device";

    it("never lets guesses from elsewhere lock the owner out of a browser they signed in with", async () => {
      const admin = await quickAdmin(ctx);
      const first = await login(send, admin.email, admin.password!, "127.0.0.1");
      expect(first.statusCode).toBe(200);
      const device = cookieHeader(first, name);
      expect(device).toBeDefined();
      const attributes = first.cookies.find((c) => c.name === name)!;
      expect(attributes).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
      expect(attributes.maxAge).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);

      await guessFromTwoAddresses(send, admin.email);
      // The owner, from a third address, on the browser they used before.
      const owner = await login(send, admin.email, admin.password!, "127.0.0.5", device);
      expect(owner.statusCode).toBe(200);
      // A new browser is held back for at most the window after the last guess.
      const newBrowser = await login(send, admin.email, admin.password!, "127.0.0.6");
      expect(newBrowser.statusCode).toBe(429);
      expect(Number(newBrowser.headers["retry-after"])).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000);
    });

    it("counts a trusted browser's own failures, and trusts no forged or foreign cookie", async () => {
      const admin = await quickAdmin(ctx);
      const other = await quickAdmin(ctx);
      const device = cookieHeader(
        await login(send, admin.email, admin.password!, "127.0.0.1"),
        name,
      )!;
      const otherDevice = cookieHeader(
        await login(send, other.email, other.password!, "127.0.0.1"),
        name,
      )!;
      await guessFromTwoAddresses(send, admin.email);
      const [nonce] = device.split("=")[1]!.split(".");
      for (const cookie of [otherDevice, `${name}=${nonce}.AAAA`, `${name}=garbage`]) {
        expect(
          (await login(send, admin.email, admin.password!, "127.0.0.7", cookie)).statusCode,
        ).toBe(429);
      }
      // Even the trusted browser has its own limit, so a stolen cookie buys no free guesses.
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP; i++) {
        expect((await login(send, admin.email, `wrong-${i}`, "127.0.0.8", device)).statusCode).toBe(
          401,
        );
      }
      expect(
        (await login(send, admin.email, admin.password!, "127.0.0.8", device)).statusCode,
      ).toBe(429);
    });
  });
}
