import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { MESSAGES, SIGNED_IN_COOKIE } from "../../../contract";
import { buildAdmin, buildLearner, signIn } from "../../testing/factories";
import { allKeys, countSessions, sessionsOf } from "../../testing/inspect";
import { type TestContext, useTestApp } from "../../testing/test-app";
import { sessions, users } from "./auth.table";
import { LONG_SESSION_MS, SHORT_SESSION_MS } from "./sessions.service";
import { hashSecret } from "./tokens";

const HOUR = 60 * 60 * 1000;

function sessionCookie(response: LightMyRequestResponse) {
  return response.cookies.find(
    (c) => c.name === "credo_session" || c.name === "__Host-credo_session",
  );
}

function me(ctx: TestContext, cookie?: string) {
  return ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: cookie ? { cookie } : {} });
}

function login(ctx: TestContext, payload: Record<string, unknown>, cookie?: string) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload,
    headers: cookie ? { cookie } : {},
  });
}

describe("sessions", () => {
  const ctx = useTestApp();

  describe("GET /api/auth/me", () => {
    it("answers 401 { message } without a session", async () => {
      const response = await me(ctx);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: MESSAGES.notSignedIn,
        code: "auth.not_signed_in",
      });
    });

    it("returns the signed-in user without any password or session data", async () => {
      const learner = await buildLearner(ctx, { name: "Ada", phone: "555" });
      const cookie = await signIn(ctx, learner);
      const response = await me(ctx, cookie);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        user: {
          id: learner.id,
          name: "Ada",
          email: learner.email,
          phone: "555",
          role: "learner",
          status: "active",
          createdAt: learner.createdAt.toISOString(),
          firebaseUid: null,
          isRegisteredByAdmin: true,
          passwordSetup: true,
        },
      });
      expect(allKeys(response.json()).filter((k) => /password|session|hash/i.test(k))).toEqual([
        "passwordSetup",
      ]);
      expect(response.body).not.toContain("scrypt");
    });

    it("refuses a forged or unknown cookie and tells the browser to drop it", async () => {
      for (const value of ["garbage", "A".repeat(43)]) {
        const response = await me(ctx, `credo_session=${value}`);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({
          message: MESSAGES.notSignedIn,
          code: "auth.not_signed_in",
        });
        const cleared = sessionCookie(response);
        expect(cleared?.value).toBe("");
        expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
      }
    });

    it("refuses an expired session", async () => {
      const learner = await buildLearner(ctx);
      const cookie = await signIn(ctx, learner);
      await ctx.database.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.userId, learner.id));
      const response = await me(ctx, cookie);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: MESSAGES.notSignedIn,
        code: "auth.not_signed_in",
      });
    });
  });

  describe("session cookie", () => {
    it("is HttpOnly, SameSite=Lax, on the whole site, and not Secure outside production", async () => {
      const learner = await buildLearner(ctx);
      const response = await login(ctx, { email: learner.email, password: learner.password });
      const header = String(response.headers["set-cookie"]);
      expect(header).toMatch(/HttpOnly/);
      expect(header).toMatch(/SameSite=Lax/);
      expect(header).toMatch(/Path=\//);
      expect(header).not.toMatch(/Secure/);
      expect(sessionCookie(response)).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    });

    it("without Remember me: a browser-session cookie and a 12-hour server lifetime", async () => {
      const learner = await buildLearner(ctx);
      const response = await login(ctx, { email: learner.email, password: learner.password });
      expect(response.statusCode).toBe(200);
      // The session cookie, not the long-lived device cookie set beside it.
      const header = [response.headers["set-cookie"]]
        .flat()
        .find((line) => String(line).startsWith("credo_session="));
      expect(header).not.toMatch(/Expires=/i);
      expect(header).not.toMatch(/Max-Age=/i);
      const [row] = await sessionsOf(ctx, learner.id);
      expect(row?.persistent).toBe(false);
      expect(Math.abs(row!.expiresAt.getTime() - (Date.now() + SHORT_SESSION_MS))).toBeLessThan(
        60_000,
      );
    });

    it("with Remember me: a persistent cookie and a 30-day server lifetime", async () => {
      const learner = await buildLearner(ctx);
      const response = await login(ctx, {
        email: learner.email,
        password: learner.password,
        rememberMe: true,
      });
      expect(response.statusCode).toBe(200);
      const cookie = sessionCookie(response);
      const thirtyDays = Date.now() + LONG_SESSION_MS;
      expect(LONG_SESSION_MS).toBe(30 * 24 * HOUR);
      expect(Math.abs(cookie!.expires!.getTime() - thirtyDays)).toBeLessThan(60_000);
      const [row] = await sessionsOf(ctx, learner.id);
      expect(row?.persistent).toBe(true);
      expect(Math.abs(row!.expiresAt.getTime() - thirtyDays)).toBeLessThan(60_000);
    });

    it("stores only a SHA-256 of the session id, never the id itself", async () => {
      const learner = await buildLearner(ctx);
      const response = await login(ctx, { email: learner.email, password: learner.password });
      const secret = sessionCookie(response)!.value;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const [row] = await sessionsOf(ctx, learner.id);
      expect(row?.idHash).toBe(hashSecret(secret));
      expect(JSON.stringify(row)).not.toContain(secret);
    });

    it("slides a remembered session and its cookie when it is used after an hour", async () => {
      const learner = await buildLearner(ctx);
      const response = await login(ctx, {
        email: learner.email,
        password: learner.password,
        rememberMe: true,
      });
      const cookie = `credo_session=${sessionCookie(response)!.value}`;
      const tenDaysLeft = new Date(Date.now() + 10 * 24 * HOUR);
      await ctx.database.db
        .update(sessions)
        .set({ lastSeenAt: new Date(Date.now() - 2 * HOUR), expiresAt: tenDaysLeft })
        .where(eq(sessions.userId, learner.id));

      const used = await me(ctx, cookie);
      expect(used.statusCode).toBe(200);
      const thirtyDays = Date.now() + LONG_SESSION_MS;
      const [row] = await sessionsOf(ctx, learner.id);
      expect(Math.abs(row!.expiresAt.getTime() - thirtyDays)).toBeLessThan(60_000);
      // The browser must learn the new expiry too, or it drops the cookie after 30 days anyway.
      const renewed = sessionCookie(used);
      expect(renewed?.value).toBe(cookie.split("=")[1]);
      expect(Math.abs(renewed!.expires!.getTime() - thirtyDays)).toBeLessThan(60_000);
      expect(renewed).toMatchObject({ httpOnly: true, sameSite: "Lax" });

      // Within the hour nothing is rewritten.
      const again = await me(ctx, cookie);
      expect(sessionCookie(again)).toBeUndefined();
    });

    it("never slides a browser-session (not remembered) session", async () => {
      const learner = await buildLearner(ctx);
      const cookie = await signIn(ctx, learner);
      const expiresAt = new Date(Date.now() + HOUR);
      await ctx.database.db
        .update(sessions)
        .set({ lastSeenAt: new Date(Date.now() - 2 * HOUR), expiresAt })
        .where(eq(sessions.userId, learner.id));
      const response = await me(ctx, cookie);
      expect(response.statusCode).toBe(200);
      expect(sessionCookie(response)).toBeUndefined();
      const [row] = await sessionsOf(ctx, learner.id);
      expect(row?.expiresAt.getTime()).toBe(expiresAt.getTime());
    });
  });

  describe("sign-in replaces the session", () => {
    it("issues a new session id at every sign-in; the old cookie stops working", async () => {
      const learner = await buildLearner(ctx);
      const first = await signIn(ctx, learner);
      const again = await login(ctx, { email: learner.email, password: learner.password }, first);
      expect(again.statusCode).toBe(200);
      const second = `credo_session=${sessionCookie(again)!.value}`;
      expect(second).not.toBe(first);
      expect((await me(ctx, first)).statusCode).toBe(401);
      expect((await me(ctx, second)).statusCode).toBe(200);
      expect(await countSessions(ctx, learner.id)).toBe(1);
    });

    it("keeps the user's sessions on other devices", async () => {
      const learner = await buildLearner(ctx);
      const laptop = await signIn(ctx, learner);
      const phone = await signIn(ctx, learner);
      expect(phone).not.toBe(laptop);
      expect((await me(ctx, laptop)).statusCode).toBe(200);
      expect((await me(ctx, phone)).statusCode).toBe(200);
      expect(await countSessions(ctx, learner.id)).toBe(2);
    });
  });

  describe("the signed-in hint the web client reads", () => {
    const hint = (response: LightMyRequestResponse) =>
      response.cookies.find((c) => c.name === SIGNED_IN_COOKIE);

    it("is set beside the session cookie, readable by the page, and lives as long", async () => {
      const learner = await buildLearner(ctx);
      const browserSession = await login(ctx, { email: learner.email, password: learner.password });
      expect(hint(browserSession)).toMatchObject({ value: "1", path: "/", sameSite: "Lax" });
      expect(hint(browserSession)?.httpOnly).toBeUndefined();
      expect(hint(browserSession)?.expires).toBeUndefined();
      const remembered = await login(ctx, {
        email: learner.email,
        password: learner.password,
        rememberMe: true,
      });
      expect(hint(remembered)?.expires?.getTime()).toBe(
        sessionCookie(remembered)?.expires?.getTime(),
      );
    });

    it("goes with the session: on sign-out, with a dead session, and without a session cookie", async () => {
      const learner = await buildLearner(ctx);
      const cookie = await signIn(ctx, learner);
      const out = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/logout",
        headers: { cookie: `${cookie}; ${SIGNED_IN_COOKIE}=1` },
      });
      expect(hint(out)?.value).toBe("");
      // The old cookie names no session now: the answer drops both.
      const stale = await me(ctx, `${cookie}; ${SIGNED_IN_COOKIE}=1`);
      expect(stale.statusCode).toBe(401);
      expect(hint(stale)?.value).toBe("");
      // Only the hint left (the session cookie died with the browser session): dropped too.
      const orphan = await me(ctx, `${SIGNED_IN_COOKIE}=1`);
      expect(hint(orphan)?.value).toBe("");
      expect(hint(orphan)?.expires?.getTime()).toBeLessThan(Date.now());
    });
  });

  describe("POST /api/auth/logout", () => {
    it("deletes the session on the server and clears the cookie", async () => {
      const learner = await buildLearner(ctx);
      const cookie = await signIn(ctx, learner);
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/logout",
        headers: { cookie },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: "Logged out" });
      const cleared = sessionCookie(response);
      expect(cleared?.value).toBe("");
      expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
      expect(await countSessions(ctx, learner.id)).toBe(0);
      // A copy of the old cookie (e.g. stolen) is worthless now.
      const replay = await me(ctx, cookie);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toEqual({ message: MESSAGES.notSignedIn, code: "auth.not_signed_in" });
    });

    it("ends only this session, not the user's other devices", async () => {
      const learner = await buildLearner(ctx);
      const laptop = await signIn(ctx, learner);
      const phone = await signIn(ctx, learner);
      await ctx.app.inject({
        method: "POST",
        url: "/api/auth/logout",
        headers: { cookie: laptop },
      });
      expect((await me(ctx, laptop)).statusCode).toBe(401);
      expect((await me(ctx, phone)).statusCode).toBe(200);
    });

    it("answers 200 without a session too", async () => {
      const response = await ctx.app.inject({ method: "POST", url: "/api/auth/logout" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: "Logged out" });
    });
  });

  describe("restriction", () => {
    it("ends a restricted learner's existing sessions at once", async () => {
      const learner = await buildLearner(ctx);
      const laptop = await signIn(ctx, learner);
      const phone = await signIn(ctx, learner);
      await ctx.database.db
        .update(users)
        .set({ status: "restricted" })
        .where(eq(users.id, learner.id));
      const response = await me(ctx, laptop);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: MESSAGES.notSignedIn,
        code: "auth.not_signed_in",
      });
      expect(await countSessions(ctx, learner.id)).toBe(0);
      expect((await me(ctx, phone)).statusCode).toBe(401);
    });

    it("does not end other users' sessions", async () => {
      const restricted = await buildLearner(ctx);
      const other = await buildLearner(ctx);
      const admin = await buildAdmin(ctx);
      const restrictedCookie = await signIn(ctx, restricted);
      const otherCookie = await signIn(ctx, other);
      const adminCookie = await signIn(ctx, admin);
      await ctx.database.db
        .update(users)
        .set({ status: "restricted" })
        .where(eq(users.id, restricted.id));
      expect((await me(ctx, restrictedCookie)).statusCode).toBe(401);
      expect((await me(ctx, otherCookie)).statusCode).toBe(200);
      expect((await me(ctx, adminCookie)).statusCode).toBe(200);
    });

    it("ends the session when the user is deleted", async () => {
      const learner = await buildLearner(ctx);
      const cookie = await signIn(ctx, learner);
      await ctx.database.db.delete(users).where(eq(users.id, learner.id));
      expect((await me(ctx, cookie)).statusCode).toBe(401);
      expect(await countSessions(ctx)).toBe(0);
    });
  });
});

describe("sessions in production", () => {
  const ctx = useTestApp({ NODE_ENV: "production" });

  it("marks the session cookie __Host-, Secure, HttpOnly and SameSite=Lax", async () => {
    const learner = await buildLearner(ctx);
    const response = await login(ctx, { email: learner.email, password: learner.password });
    expect(response.statusCode).toBe(200);
    expect(sessionCookie(response)).toMatchObject({
      name: "__Host-credo_session",
      secure: true,
      httpOnly: true,
      sameSite: "Lax",
      path: "/",
    });
    expect(sessionCookie(response)!.domain).toBeUndefined();
    const cookie = `__Host-credo_session=${sessionCookie(response)!.value}`;
    expect((await me(ctx, cookie)).statusCode).toBe(200);
    const logout = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie },
    });
    expect(sessionCookie(logout)).toMatchObject({ value: "", secure: true, httpOnly: true });
  });

  it("requires the emailed invitation for first-time password setup", async () => {
    const learner = await buildLearner(ctx, { password: null });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/setup-password",
      payload: { email: learner.email, password: "new-password", name: "Learner" },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: "Please open the invitation link from your email to set your password.",
      code: "auth.invitation_required",
    });
    expect(await countSessions(ctx)).toBe(0);
  });
});
