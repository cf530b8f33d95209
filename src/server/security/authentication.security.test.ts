import { scrypt } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../contract";
import { createAuthRepository } from "../people/auth/auth.repository";
import { hashSecret, newSecret } from "../people/auth/tokens";
import { buildAdmin, buildLearner } from "../testing/factories";
import { countSessions, countUsers, userById } from "../testing/inspect";
import {
  buildPublishedCourse,
  enrollViaApi,
  postProgress,
  useSharedVideo,
} from "../testing/learning";
import { cookieFrom, TEST_ADMIN_KEY, type TestContext, useTestApp } from "../testing/test-app";
import {
  expectRefusal,
  expectUnchanged,
  freshAddress,
  sessionCookie,
  snapshotAll,
} from "./support";

// A pass-through spy: the tests see every key derivation a request runs.
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof import("node:crypto")>();
  return { ...crypto, scrypt: vi.fn(crypto.scrypt) };
});

function login(ctx: TestContext, email: string, password: string, remoteAddress = freshAddress()) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    remoteAddress,
  });
}

function post(ctx: TestContext, url: string, payload: object, remoteAddress = freshAddress()) {
  return ctx.app.inject({ method: "POST", url, payload, remoteAddress });
}

/** Stores a single-use token for a user the way the service does; returns the secret. */
async function issueToken(ctx: TestContext, userId: string, kind: "invite" | "reset") {
  const secret = newSecret();
  await createAuthRepository(ctx.database.db).insertToken({
    tokenHash: hashSecret(secret),
    userId,
    kind,
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  });
  return secret;
}

/** What a client can compare between two answers: status, body and cookies. */
const observable = (r: { statusCode: number; body: string; cookies: unknown[] }) => ({
  statusCode: r.statusCode,
  body: r.body,
  cookies: r.cookies.length,
});

describe("authentication attacks", () => {
  const ctx = useTestApp();

  describe("user enumeration", () => {
    it("answers an unknown email, a wrong password, a not-yet-set-up, restricted or admin account alike", async () => {
      const learner = await buildLearner(ctx);
      const notSetUp = await buildLearner(ctx, { password: null });
      const restricted = await buildLearner(ctx, { status: "restricted" });
      const admin = await buildAdmin(ctx);
      const before = await snapshotAll(ctx);
      const answers = [];
      for (const email of [
        "nobody@example.com",
        learner.email,
        notSetUp.email,
        restricted.email,
        admin.email,
      ]) {
        const response = await login(ctx, email, "not-the-password");
        expectRefusal(response, 401, email);
        answers.push(observable(response));
      }
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(answers[0]).toEqual({
        statusCode: 401,
        body: JSON.stringify({
          message: MESSAGES.invalidCredentials,
          code: "auth.invalid_credentials",
        }),
        cookies: 0,
      });
      await expectUnchanged(ctx, before);
    });

    it("checks a password as dearly for an unknown email as for a wrong one (no timing oracle)", async () => {
      const learner = await buildLearner(ctx);
      // The dummy hash for unknown accounts is made on first use: not part of a check.
      await login(ctx, "warm-up@example.com", "not-the-password");
      const before = await snapshotAll(ctx);
      /** The key derivations one failed sign-in runs: their count and cost decide its time. */
      const derivations = async (email: string) => {
        vi.mocked(scrypt).mockClear();
        const response = await login(ctx, email, "not-the-password");
        expect(response.statusCode).toBe(401);
        return vi.mocked(scrypt).mock.calls.map(([, salt, keyLength, options]) => ({
          saltBytes: Buffer.from(salt as Buffer).length,
          keyLength,
          options,
        }));
      };
      const known = await derivations(learner.email);
      const unknown = await derivations("nobody@example.com");
      expect(known).toHaveLength(1);
      expect(unknown).toEqual(known);
      await expectUnchanged(ctx, before);
    });

    it("does not reveal administrators through check-password-setup", async () => {
      const admin = await buildAdmin(ctx);
      const before = await snapshotAll(ctx);
      const forAdmin = await post(ctx, "/api/auth/check-password-setup", { email: admin.email });
      const forNobody = await post(ctx, "/api/auth/check-password-setup", {
        email: "nobody@example.com",
      });
      expect(forAdmin.json()).toEqual({ passwordSetup: false });
      expect(observable(forAdmin)).toEqual(observable(forNobody));
      await expectUnchanged(ctx, before);
    });

    it("answers reset and invitation requests alike for every email, creating nothing for strangers", async () => {
      const learner = await buildLearner(ctx);
      const admin = await buildAdmin(ctx);
      const urls = ["/api/auth/reset-password", "/api/auth/resend-invitation"];
      const answers: Record<string, ReturnType<typeof observable>[]> = {};
      const before = await snapshotAll(ctx);
      for (const url of urls) {
        answers[url] = [];
        for (const email of ["nobody@example.com", "NOBODY2@example.com"]) {
          answers[url].push(observable(await post(ctx, url, { email })));
        }
      }
      await expectUnchanged(ctx, before);
      for (const url of urls) {
        for (const email of [learner.email, admin.email]) {
          answers[url]!.push(observable(await post(ctx, url, { email })));
        }
        expect(new Set(answers[url]!.map((a) => JSON.stringify(a))).size, url).toBe(1);
        expect(answers[url]![0]?.statusCode).toBe(200);
      }
    });
  });

  describe("brute force", () => {
    it("throttles credential stuffing from one address across many accounts", async () => {
      const learner = await buildLearner(ctx);
      const address = freshAddress();
      // The per-address limit counts every attempt before its body is read, so cheap
      // attempts (a missing password) stand in for 60 guesses at 60 different accounts.
      for (let i = 0; i < 60; i++) {
        const response = await ctx.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { email: `victim-${i}@example.com`, password: "" },
          remoteAddress: address,
        });
        expect(response.statusCode).toBe(400);
      }
      const before = await snapshotAll(ctx);
      const response = await login(ctx, learner.email, learner.password!, address);
      expectRefusal(response, 429);
      expect(response.headers["retry-after"]).toBeDefined();
      expect(response.cookies).toEqual([]);
      await expectUnchanged(ctx, before);
      // The same account from another address is not locked out by this attacker.
      expect((await login(ctx, learner.email, learner.password!)).statusCode).toBe(200);
    });

    it("throttles admin key guessing per address, even for the right key, creating nobody", async () => {
      const address = freshAddress();
      const body = { email: "mallory@example.com", password: "secret-123", name: "Mallory" };
      for (let i = 0; i < 10; i++) {
        const response = await post(
          ctx,
          "/api/auth/setup-admin-password",
          { ...body, adminKey: `guess-${i}` },
          address,
        );
        expectRefusal(response, 403);
      }
      const before = await snapshotAll(ctx);
      const response = await post(
        ctx,
        "/api/auth/setup-admin-password",
        { ...body, adminKey: TEST_ADMIN_KEY },
        address,
      );
      expectRefusal(response, 429);
      await expectUnchanged(ctx, before);
      expect(await countUsers(ctx)).toBe(0);
    });

    it("never accepts the admin key from the query string or a header", async () => {
      const before = await snapshotAll(ctx);
      const body = { email: "mallory@example.com", password: "secret-123", name: "Mallory" };
      const key = encodeURIComponent(TEST_ADMIN_KEY);
      const attempts = [
        // No key in the body: the query string's key must not fill it in.
        { url: `/api/auth/setup-admin-password?adminKey=${key}`, payload: body, status: 400 },
        {
          url: `/api/auth/setup-admin-password?adminKey=${key}&key=${key}`,
          payload: { ...body, adminKey: "wrong-key" },
          status: 403,
        },
      ];
      for (const { url, payload, status } of attempts) {
        const response = await ctx.app.inject({
          method: "POST",
          url,
          payload,
          headers: { "x-admin-key": TEST_ADMIN_KEY, authorization: `Bearer ${TEST_ADMIN_KEY}` },
          remoteAddress: freshAddress(),
        });
        expectRefusal(response, status, url);
        expect(response.cookies).toEqual([]);
      }
      await expectUnchanged(ctx, before);
    });
  });

  describe("passwords", () => {
    it("never truncates passwords over 72 bytes (ASCII and multi-byte)", async () => {
      const ascii = `${"a".repeat(72)}-the-rest-matters`;
      const wide = "碁".repeat(30); // 90 bytes in UTF-8
      for (const password of [ascii, wide]) {
        const learner = await buildLearner(ctx, { password });
        const prefix72 = Buffer.from(password).subarray(0, 72).toString("utf8");
        const before = await snapshotAll(ctx);
        for (const guess of [prefix72, `${prefix72}-something-else`, password.slice(0, -1)]) {
          expectRefusal(await login(ctx, learner.email, guess), 401, guess);
        }
        await expectUnchanged(ctx, before);
        expect((await login(ctx, learner.email, password)).statusCode).toBe(200);
      }
    });
  });

  describe("sessions", () => {
    const videoPath = useSharedVideo(ctx);

    it("ends every session of a restricted learner at once, on every route", async () => {
      const admin = await buildAdmin(ctx);
      const adminCookie = await sessionCookie(ctx, admin);
      const learner = await buildLearner(ctx);
      const course = await buildPublishedCourse(ctx, adminCookie, {
        video: await videoPath(adminCookie),
        modules: 2,
      });
      await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      const laptop = cookieFrom(await login(ctx, learner.email, learner.password!));
      const phone = cookieFrom(await login(ctx, learner.email, learner.password!));
      const restrict = await ctx.app.inject({
        method: "PATCH",
        url: `/api/users/learners/${learner.id}/restrict`,
        headers: { cookie: adminCookie },
      });
      expect(restrict.statusCode).toBe(200);
      const before = await snapshotAll(ctx);
      for (const cookie of [laptop, phone]) {
        expectRefusal(
          await ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } }),
          401,
        );
        expectRefusal(
          await postProgress(ctx, cookie, {
            userId: learner.id,
            courseId: course.id,
            moduleId: course.modules[0]!.id,
          }),
          401,
        );
        expectRefusal(
          await ctx.app.inject({
            method: "GET",
            url: course.modules[0]!.videoUrl,
            headers: { cookie },
          }),
          401,
        );
      }
      await expectUnchanged(ctx, before);
      expect(await countSessions(ctx, learner.id)).toBe(0);
    });

    it("ends a deleted learner's session at once: the cookie brings nothing back", async () => {
      const admin = await buildAdmin(ctx);
      const adminCookie = await sessionCookie(ctx, admin);
      const learner = await buildLearner(ctx);
      const cookie = await sessionCookie(ctx, learner);
      const removed = await ctx.app.inject({
        method: "DELETE",
        url: `/api/users/learners/${learner.id}`,
        headers: { cookie: adminCookie },
      });
      expect(removed.statusCode).toBe(200);
      const before = await snapshotAll(ctx);
      expectRefusal(
        await ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } }),
        401,
      );
      expectRefusal(
        await ctx.app.inject({
          method: "PUT",
          url: "/api/auth/profile",
          headers: { cookie },
          payload: { name: "Back from the dead" },
        }),
        401,
      );
      await expectUnchanged(ctx, before);
      expect(await userById(ctx, learner.id)).toBeUndefined();
    });

    it("never adopts a session id chosen by an attacker (session fixation)", async () => {
      const learner = await buildLearner(ctx);
      const planted = "A".repeat(43);
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: learner.email, password: learner.password },
        headers: { cookie: `credo_session=${planted}` },
        remoteAddress: freshAddress(),
      });
      expect(response.statusCode).toBe(200);
      expect(cookieFrom(response)).not.toBe(`credo_session=${planted}`);
      const me = await ctx.app.inject({
        method: "GET",
        url: "/api/auth/me",
        headers: { cookie: `credo_session=${planted}` },
      });
      expectRefusal(me, 401);
    });
  });

  describe("emailed tokens", () => {
    function confirmReset(token: string, password: string) {
      return post(ctx, "/api/auth/reset-password/confirm", { token, password });
    }

    it("uses a reset token once: a replay changes nothing", async () => {
      const learner = await buildLearner(ctx);
      const token = await issueToken(ctx, learner.id, "reset");
      expect((await confirmReset(token, "first-new-password")).statusCode).toBe(200);
      const before = await snapshotAll(ctx);
      expectRefusal(await confirmReset(token, "attacker-password"), 400);
      await expectUnchanged(ctx, before);
      expect((await login(ctx, learner.email, "first-new-password")).statusCode).toBe(200);
    });

    it("retires every other reset link once one of them has reset the password", async () => {
      const learner = await buildLearner(ctx);
      const first = await issueToken(ctx, learner.id, "reset");
      const second = await issueToken(ctx, learner.id, "reset");
      expect((await confirmReset(second, "owner-new-password")).statusCode).toBe(200);
      const before = await snapshotAll(ctx);
      expectRefusal(await confirmReset(first, "attacker-password"), 400);
      await expectUnchanged(ctx, before);
    });

    it("retires reset links mailed before a password change in the profile", async () => {
      const learner = await buildLearner(ctx);
      const token = await issueToken(ctx, learner.id, "reset");
      const cookie = await sessionCookie(ctx, learner);
      const changed = await ctx.app.inject({
        method: "PUT",
        url: "/api/auth/profile",
        headers: { cookie },
        payload: {
          name: learner.name,
          currentPassword: learner.password,
          newPassword: "changed-by-owner",
        },
      });
      expect(changed.statusCode).toBe(200);
      const before = await snapshotAll(ctx);
      expectRefusal(await confirmReset(token, "attacker-password"), 400);
      await expectUnchanged(ctx, before);
    });

    it("binds a token to its kind: an invitation cannot reset a password", async () => {
      const learner = await buildLearner(ctx);
      const invitation = await issueToken(ctx, learner.id, "invite");
      const before = await snapshotAll(ctx);
      expectRefusal(await confirmReset(invitation, "attacker-password"), 400);
      expectRefusal(await confirmReset("x".repeat(43), "attacker-password"), 400);
      await expectUnchanged(ctx, before);
    });

    it("refuses a reset link of a learner restricted since it was mailed, keeping it unused", async () => {
      const learner = await buildLearner(ctx);
      const token = await issueToken(ctx, learner.id, "reset");
      await createAuthRepository(ctx.database.db).updateUser(learner.id, { status: "restricted" });
      const before = await snapshotAll(ctx);
      expectRefusal(await confirmReset(token, "attacker-password"), 403);
      await expectUnchanged(ctx, before);
    });
  });
});

describe("authentication attacks (invite-only setup)", () => {
  const ctx = useTestApp({ PASSWORD_SETUP_MODE: "invite" });

  it("binds an invitation to its account and kind: nobody else's and no reset token sets a password", async () => {
    const alice = await buildLearner(ctx, { password: null });
    const mallory = await buildLearner(ctx, { password: null });
    const alicesInvitation = await issueToken(ctx, alice.id, "invite");
    const mallorysReset = await issueToken(ctx, mallory.id, "reset");
    const before = await snapshotAll(ctx);
    for (const inviteToken of [alicesInvitation, mallorysReset]) {
      const response = await post(ctx, "/api/auth/setup-password", {
        email: mallory.email,
        password: "mallory-password",
        name: "Mallory",
        inviteToken,
      });
      expectRefusal(response, 403);
      expect(response.cookies).toEqual([]);
    }
    await expectUnchanged(ctx, before);
    // Alice's invitation was not used up by the attempt.
    const own = await post(ctx, "/api/auth/setup-password", {
      email: alice.email,
      password: "alice-password",
      name: "Alice",
      inviteToken: alicesInvitation,
    });
    expect(own.statusCode).toBe(200);
  });
});
