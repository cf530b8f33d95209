import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../contract";
import { buildAdmin, buildLearner, signIn } from "../../testing/factories";
import { allKeys, countLoginFailures, countSessions, userById } from "../../testing/inspect";
import { type TestContext, useTestApp } from "../../testing/test-app";

const NOT_YOUR_ACCOUNT = "You can only update your own profile.";

function updateProfile(
  ctx: TestContext,
  cookie: string | undefined,
  payload: Record<string, unknown>,
) {
  return ctx.app.inject({
    method: "PUT",
    url: "/api/auth/profile",
    payload,
    headers: cookie ? { cookie } : {},
  });
}

function me(ctx: TestContext, cookie: string) {
  return ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
}

function login(ctx: TestContext, email: string, password: string) {
  return ctx.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
}

describe("PUT /api/auth/profile", () => {
  const ctx = useTestApp();

  it("updates the signed-in user's own name and phone", async () => {
    const learner = await buildLearner(ctx, { name: "Old Name", phone: "111" });
    const cookie = await signIn(ctx, learner);
    const response = await updateProfile(ctx, cookie, {
      name: "  New Name ",
      phone: "222",
      userId: learner.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      id: learner.id,
      name: "New Name",
      phone: "222",
      email: learner.email,
      role: "learner",
    });
    expect(allKeys(response.json()).filter((k) => /password/i.test(k))).toEqual(["passwordSetup"]);
    expect(response.body).not.toContain("scrypt");
    const row = await userById(ctx, learner.id);
    expect(row).toMatchObject({ name: "New Name", phone: "222" });
    expect(row?.passwordHash).toBe(learner.passwordHash);
    expect((await me(ctx, cookie)).json().user.name).toBe("New Name");
  });

  it("lets administrators edit their own profile too", async () => {
    const admin = await buildAdmin(ctx);
    const response = await updateProfile(ctx, await signIn(ctx, admin), {
      name: "Boss",
      phone: "",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ name: "Boss", phone: null, role: "admin" });
  });

  it("clears the phone when it is sent empty or null", async () => {
    const learner = await buildLearner(ctx, { phone: "111" });
    const cookie = await signIn(ctx, learner);
    expect(
      (await updateProfile(ctx, cookie, { name: "N", phone: "" })).json().user.phone,
    ).toBeNull();
    await updateProfile(ctx, cookie, { name: "N", phone: "333" });
    expect(
      (await updateProfile(ctx, cookie, { name: "N", phone: null })).json().user.phone,
    ).toBeNull();
  });

  it("keeps the phone when the request leaves it out", async () => {
    const learner = await buildLearner(ctx, { phone: "111" });
    const cookie = await signIn(ctx, learner);
    const response = await updateProfile(ctx, cookie, { name: "Only The Name" });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ name: "Only The Name", phone: "111" });
    expect((await userById(ctx, learner.id))?.phone).toBe("111");
  });

  it("refuses anonymous callers with 401", async () => {
    const response = await updateProfile(ctx, undefined, { name: "X" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: MESSAGES.notSignedIn, code: "auth.not_signed_in" });
  });

  it("refuses another user's id with 403 and changes neither user", async () => {
    const me1 = await buildLearner(ctx, { name: "Me" });
    const victim = await buildLearner(ctx, { name: "Victim", phone: "999" });
    const [meBefore, victimBefore] = [await userById(ctx, me1.id), await userById(ctx, victim.id)];
    const response = await updateProfile(ctx, await signIn(ctx, me1), {
      name: "Hijacked",
      phone: "000",
      userId: victim.id,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: NOT_YOUR_ACCOUNT, code: "auth.not_your_account" });
    expect(await userById(ctx, victim.id)).toEqual(victimBefore);
    expect(await userById(ctx, me1.id)).toEqual(meBefore);
  });

  it("does not let an administrator edit a learner through their own profile route", async () => {
    const admin = await buildAdmin(ctx);
    const learner = await buildLearner(ctx, { name: "Learner" });
    const response = await updateProfile(ctx, await signIn(ctx, admin), {
      name: "Changed",
      userId: learner.id,
    });
    expect(response.statusCode).toBe(403);
    expect((await userById(ctx, learner.id))?.name).toBe("Learner");
  });

  it.each([
    ["role", { role: "admin" }],
    ["status", { status: "active" }],
    ["email", { email: "new@example.com" }],
    ["passwordSetup", { passwordSetup: false }],
    ["isRegisteredByAdmin", { isRegisteredByAdmin: true }],
    ["passwordHash", { passwordHash: "scrypt$1$1$1$x$y" }],
  ])("refuses a request that tries to set %s with 400, changing nothing", async (field, extra) => {
    const learner = await buildLearner(ctx, { name: "Same", status: "active" });
    const before = await userById(ctx, learner.id);
    const cookie = await signIn(ctx, learner);
    const response = await updateProfile(ctx, cookie, { name: "Changed", ...extra });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(field);
    expect(await userById(ctx, learner.id)).toEqual(before);
  });

  it.each([
    ["a blank name", { name: "   " }, "name", "Name is required"],
    ["no name", {}, "name", "Name is required"],
    [
      "a short new password",
      { name: "N", currentPassword: "correct horse", newPassword: "12345" },
      "newPassword",
      "Password must be at least 6 characters long.",
    ],
    [
      "a phone that is too long",
      { name: "N", phone: "1".repeat(41) },
      "phone",
      "Phone must be at most 40 characters",
    ],
  ])(
    "refuses %s with 400 naming the field, changing nothing",
    async (_label, payload, path, message) => {
      const learner = await buildLearner(ctx, { name: "Same" });
      const before = await userById(ctx, learner.id);
      const response = await updateProfile(ctx, await signIn(ctx, learner), payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ path, message });
      expect(await userById(ctx, learner.id)).toEqual(before);
    },
  );

  describe("password change", () => {
    it("needs the correct current password, and changes nothing without it", async () => {
      const learner = await buildLearner(ctx, { name: "Same" });
      const before = await userById(ctx, learner.id);
      const cookie = await signIn(ctx, learner);

      const wrong = await updateProfile(ctx, cookie, {
        name: "Changed",
        currentPassword: "not my password",
        newPassword: "brand-new-password",
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({
        message: MESSAGES.currentPasswordWrong,
        code: "auth.current_password_wrong",
      });

      const missing = await updateProfile(ctx, cookie, {
        name: "Changed",
        newPassword: "brand-new-password",
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({
        message: MESSAGES.currentPasswordRequired,
        code: "auth.current_password_required",
      });

      const withoutNew = await updateProfile(ctx, cookie, {
        name: "Changed",
        currentPassword: learner.password,
      });
      expect(withoutNew.statusCode).toBe(400);
      expect(withoutNew.json()).toMatchObject({
        path: "newPassword",
        message: "A new password is required with the current password.",
      });

      expect(await userById(ctx, learner.id)).toEqual(before);
      expect((await login(ctx, learner.email, learner.password!)).statusCode).toBe(200);
      expect((await login(ctx, learner.email, "brand-new-password")).statusCode).toBe(401);
    });

    it("sets the new password, ends the user's other sessions and keeps this one", async () => {
      const learner = await buildLearner(ctx);
      const other = await buildLearner(ctx);
      const laptop = await signIn(ctx, learner);
      const phone = await signIn(ctx, learner);
      const othersCookie = await signIn(ctx, other);

      const response = await updateProfile(ctx, laptop, {
        name: "Same Person",
        phone: "",
        currentPassword: learner.password,
        newPassword: "brand-new-password",
        userId: learner.id,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ id: learner.id, name: "Same Person" });
      expect(response.body).not.toContain("scrypt");

      expect((await me(ctx, laptop)).statusCode).toBe(200);
      expect((await me(ctx, phone)).statusCode).toBe(401);
      expect(await countSessions(ctx, learner.id)).toBe(1);
      expect((await me(ctx, othersCookie)).statusCode).toBe(200);

      expect((await login(ctx, learner.email, "brand-new-password")).statusCode).toBe(200);
      const old = await login(ctx, learner.email, learner.password!);
      expect(old.statusCode).toBe(401);
      expect(old.json()).toEqual({
        message: MESSAGES.invalidCredentials,
        code: "auth.invalid_credentials",
      });
    });

    it("counts wrong current passwords like sign-in failures: 429 after 10", async () => {
      const learner = await buildLearner(ctx);
      const cookie = await signIn(ctx, learner);
      for (let i = 0; i < 10; i++) {
        const response = await updateProfile(ctx, cookie, {
          name: "N",
          currentPassword: `guess-${i}`,
          newPassword: "brand-new-password",
        });
        expect(response.statusCode).toBe(400);
      }
      const locked = await updateProfile(ctx, cookie, {
        name: "N",
        currentPassword: learner.password,
        newPassword: "brand-new-password",
      });
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ message: MESSAGES.tooManyAttempts, code: "auth.throttled" });
      expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
      const row = await userById(ctx, learner.id);
      expect(row?.passwordHash).toBe(learner.passwordHash);
      // Name and phone edits need no password and stay possible.
      expect((await updateProfile(ctx, cookie, { name: "Still Editable" })).statusCode).toBe(200);
    });

    it("does not count a right current password against the limit", async () => {
      const learner = await buildLearner(ctx);
      const cookie = await signIn(ctx, learner);
      const response = await updateProfile(ctx, cookie, {
        name: "N",
        currentPassword: learner.password,
        newPassword: "brand-new-password",
      });
      expect(response.statusCode).toBe(200);
      expect(await countLoginFailures(ctx)).toBe(0);
    });

    it("keeps every session when only the name changes", async () => {
      const learner = await buildLearner(ctx);
      const laptop = await signIn(ctx, learner);
      const phone = await signIn(ctx, learner);
      await updateProfile(ctx, laptop, { name: "Renamed" });
      expect((await me(ctx, phone)).statusCode).toBe(200);
      expect(await countSessions(ctx, learner.id)).toBe(2);
    });
  });
});
