import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../contract";
import { buildAdmin, buildLearner, signIn } from "../testing/factories";
import { countLoginFailures, countSessions, countUsers, userById } from "../testing/inspect";
import { useTestApp } from "../testing/test-app";

const OWN_ORIGIN = "http://localhost:5000";
const newLearner = { email: "new.learner@example.com", name: "New Learner" };

describe("cross-site request forgery guard", () => {
  const ctx = useTestApp({ PUBLIC_URL: OWN_ORIGIN });

  async function adminCookie() {
    const admin = await buildAdmin(ctx);
    return { admin, cookie: await signIn(ctx, admin) };
  }

  it.each([
    ["application/x-www-form-urlencoded", "email=new.learner%40example.com&name=New+Learner"],
    [
      "multipart/form-data; boundary=x",
      '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--x--',
    ],
    ["text/plain", JSON.stringify(newLearner)],
    ["application/jsonp", JSON.stringify(newLearner)],
  ])("refuses a state-changing %s body with 415 and changes nothing", async (type, payload) => {
    const { cookie } = await adminCookie();
    const usersBefore = await countUsers(ctx);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/register",
      headers: { cookie, "content-type": type },
      payload,
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      message: MESSAGES.jsonRequired,
      code: "request.json_required",
    });
    expect(await countUsers(ctx)).toBe(usersBefore);
  });

  it("refuses a body without a content type", async () => {
    const learner = await buildLearner(ctx);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-length": "60" },
      payload: JSON.stringify({ email: learner.email, password: learner.password }).padEnd(60),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      message: MESSAGES.jsonRequired,
      code: "request.json_required",
    });
    expect(await countSessions(ctx)).toBe(0);
  });

  it("refuses a form-encoded sign-in: no session, no recorded failure", async () => {
    const learner = await buildLearner(ctx);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `email=${encodeURIComponent(learner.email)}&password=${encodeURIComponent(learner.password!)}`,
    });
    expect(response.statusCode).toBe(415);
    expect(response.cookies).toEqual([]);
    expect(await countSessions(ctx)).toBe(0);
    expect(await countLoginFailures(ctx)).toBe(0);
  });

  it("refuses a non-JSON profile update and leaves the profile as it was", async () => {
    const learner = await buildLearner(ctx, { name: "Original", phone: "111" });
    const cookie = await signIn(ctx, learner);
    const response = await ctx.app.inject({
      method: "PUT",
      url: "/api/auth/profile",
      headers: { cookie, "content-type": "text/plain" },
      payload: JSON.stringify({ name: "Changed", phone: "999" }),
    });
    expect(response.statusCode).toBe(415);
    expect(await userById(ctx, learner.id)).toMatchObject({ name: "Original", phone: "111" });
  });

  it.each(["https://evil.example", "http://localhost:5001", "https://localhost:5000", "null"])(
    "refuses a request from the foreign origin %s with 403 and changes nothing",
    async (origin) => {
      const { cookie } = await adminCookie();
      const usersBefore = await countUsers(ctx);
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/register",
        headers: { cookie, origin },
        payload: newLearner,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: MESSAGES.crossSite, code: "request.cross_site" });
      expect(await countUsers(ctx)).toBe(usersBefore);
    },
  );

  it("refuses a cross-site logout: the session survives", async () => {
    const learner = await buildLearner(ctx);
    const cookie = await signIn(ctx, learner);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(response.statusCode).toBe(403);
    expect(await countSessions(ctx, learner.id)).toBe(1);
    const me = await ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
    expect(me.statusCode).toBe(200);
  });

  it("accepts the portal's own public origin", async () => {
    const { cookie } = await adminCookie();
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/register",
      headers: { cookie, origin: OWN_ORIGIN, "content-type": "application/json; charset=utf-8" },
      payload: JSON.stringify(newLearner),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ email: newLearner.email });
  });

  it("accepts the origin of the Host it was reached on (e.g. a LAN address)", async () => {
    const { cookie } = await adminCookie();
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/register",
      headers: { cookie, host: "192.168.1.20:5000", origin: "http://192.168.1.20:5000" },
      payload: newLearner,
    });
    expect(response.statusCode).toBe(201);
  });

  it("accepts a request without an Origin header (same-origin clients, curl)", async () => {
    const { cookie } = await adminCookie();
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/register",
      headers: { cookie },
      payload: newLearner,
    });
    expect(response.statusCode).toBe(201);
    expect(await countUsers(ctx)).toBe(2);
  });

  it("lets a bodiless logout through without a content type, as the web client sends it", async () => {
    const learner = await buildLearner(ctx);
    const cookie = await signIn(ctx, learner);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(await countSessions(ctx, learner.id)).toBe(0);
  });

  it("leaves safe methods alone, whatever their origin", async () => {
    const learner = await buildLearner(ctx);
    const cookie = await signIn(ctx, learner);
    const response = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(learner.id);
  });
});
