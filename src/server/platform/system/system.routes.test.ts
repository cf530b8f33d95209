import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing/test-app";

describe("system routes", () => {
  const ctx = useTestApp({ PRODUCT_NAME: "Acme Academy" });

  it("answers health and readiness", async () => {
    const health = await ctx.app.inject({ method: "GET", url: "/api/health" });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: "ok" });
    const ready = await ctx.app.inject({ method: "GET", url: "/api/ready" });
    expect(ready.statusCode).toBe(200);
  });

  it("serves the public configuration without secrets", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/config" });
    expect(response.json()).toEqual({
      productName: "Acme Academy",
      passwordSetupMode: "open",
      firebase: null,
    });
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/nope" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "Not found.", code: "request.not_found" });
  });

  it("sets security headers with a strict Content-Security-Policy", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/health" });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("generates an OpenAPI document from the route schemas", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain("/api/auth/login");
  });
});
