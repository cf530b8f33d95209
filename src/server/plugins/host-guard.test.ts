import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../contract";
import { useTestApp } from "../testing/test-app";

/** A DNS-rebinding page: its own name, pointed at this server, as Host and Origin. */
const rebound = (host: string) => ({
  host,
  origin: `http://${host}`,
  "content-type": "application/json",
});

describe("only the portal's own host is served (development)", () => {
  const ctx = useTestApp({ PUBLIC_URL: "http://localhost:5000" });

  it("refuses a rebound name on anonymous and signed-in endpoints alike", async () => {
    for (const host of [
      "attacker.example",
      "attacker.example:5000",
      "localhost.attacker.example",
    ]) {
      const probe = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/check-email",
        headers: rebound(host),
        payload: { email: "someone@example.com" },
      });
      expect(probe.statusCode, host).toBe(421);
      expect(probe.json()).toEqual({ message: MESSAGES.wrongHost, code: "request.wrong_host" });
      const page = await ctx.app.inject({ method: "GET", url: "/", headers: { host } });
      expect(page.statusCode, host).toBe(421);
    }
  });

  it("serves localhost names and address literals, on any port", async () => {
    for (const host of [
      "localhost:5000",
      "LOCALHOST",
      "app.localhost:5173",
      "127.0.0.1:5055",
      "[::1]:5000",
      "192.168.1.20:5000",
    ]) {
      const response = await ctx.app.inject({
        method: "GET",
        url: "/api/auth/me",
        headers: { host },
      });
      expect(response.statusCode, host).toBe(401);
    }
  });
});

describe("only the portal's own host is served (production)", () => {
  const ctx = useTestApp({ NODE_ENV: "production", PUBLIC_URL: "https://learn.example.com" });

  it("serves PUBLIC_URL's host, refuses every other, and still answers health probes", async () => {
    const own = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: { host: "learn.example.com" },
    });
    expect(own.statusCode).toBe(401);
    for (const host of ["127.0.0.1", "attacker.example", "localhost"]) {
      const response = await ctx.app.inject({
        method: "GET",
        url: "/api/auth/me",
        headers: { host },
      });
      expect(response.statusCode, host).toBe(421);
    }
    const probe = await ctx.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { host: "10.0.0.5:5000" },
    });
    expect(probe.statusCode).toBe(200);
  });
});
