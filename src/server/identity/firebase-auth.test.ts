import { randomBytes, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MESSAGES } from "../../contract";
import { DEFAULT_PASSWORD } from "../testing/factories";
import {
  FIREBASE_CLI_MISSING_MESSAGE,
  type FirebaseEmulator,
  firebaseCliMissing,
  startFirebaseEmulator,
} from "../testing/firebase-emulator";
import { userById } from "../testing/inspect";
import { quickAdmin, quickUser, signInAs } from "../testing/learning";
import { cookieFrom, type TestContext, useTestApp } from "../testing/test-app";

/**
 * Firebase Auth for real: the Auth emulator started from firebase-tools, firebase-admin
 * talking to it through FIREBASE_AUTH_EMULATOR_HOST. The emulator's tokens are unsigned,
 * so signature checks are proven in signed-tokens.test.ts against locally signed tokens.
 */
if (firebaseCliMissing) console.warn(FIREBASE_CLI_MISSING_MESSAGE);

const email = () => `fb-${randomBytes(4).toString("hex")}@example.com`;
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe.skipIf(firebaseCliMissing)("Firebase Auth against the emulator", () => {
  let emulator: FirebaseEmulator;
  const previousHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  beforeAll(async () => {
    emulator = await startFirebaseEmulator();
    // firebase-admin reads it from the environment on every call.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  }, 180_000);
  afterAll(async () => {
    // Assigning undefined would store the string "undefined".
    if (previousHost === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    else process.env.FIREBASE_AUTH_EMULATOR_HOST = previousHost;
    await emulator?.stop();
  });

  const ctx = useTestApp(() => ({
    FIREBASE_PROJECT_ID: emulator.projectId,
    FIREBASE_API_KEY: emulator.apiKey,
    FIREBASE_AUTH_DOMAIN: `${emulator.projectId}.firebaseapp.com`,
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
  }));
  beforeEach(async () => emulator.clear());

  function post(url: string, payload: object, cookie?: string) {
    return ctx.app.inject({
      method: "POST",
      url,
      payload,
      remoteAddress: address(),
      ...(cookie ? { headers: { cookie } } : {}),
    });
  }

  async function me(cookie: string) {
    return ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
  }

  /** A learner whose password was set up through the web SDK's flow: bound to its uid. */
  async function setUpLearner(c: TestContext, password = "firebase-pass") {
    const learner = await quickUser(c, { email: email(), password: null, passwordSetup: false });
    const account = await emulator.signUp(learner.email, password);
    const response = await post("/api/auth/setup-password", {
      email: learner.email,
      password,
      name: "Fire Learner",
      firebaseUid: account.uid,
      firebaseIdToken: account.idToken,
    });
    expect(response.statusCode).toBe(200);
    return { learner, account, password, cookie: cookieFrom(response) };
  }

  it("exposes the identity service's settings, and the emulator, to the web client", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/config" });
    expect(response.json().firebase).toEqual({
      projectId: emulator.projectId,
      apiKey: emulator.apiKey,
      authDomain: `${emulator.projectId}.firebaseapp.com`,
      emulatorHost: emulator.host,
    });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toMatch(new RegExp(`connect-src 'self' http://${emulator.host}(;|$)`));
  });

  it("first-time setup binds the verified uid of the account the SDK created", async () => {
    const { learner, account, cookie } = await setUpLearner(ctx);
    const row = await userById(ctx, learner.id);
    expect(row?.firebaseUid).toBe(account.uid);
    expect(row?.passwordSetup).toBe(true);
    expect((await me(cookie)).json().user).toMatchObject({
      id: learner.id,
      firebaseUid: account.uid,
    });
  });

  it("signs in with a verified ID token, and refuses a token that is not this account's", async () => {
    const { learner, account, password } = await setUpLearner(ctx);
    const { idToken } = await emulator.signIn(learner.email, password);
    const ok = await post("/api/auth/login", {
      email: learner.email,
      firebaseUid: account.uid,
      firebaseIdToken: idToken,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ id: learner.id, firebaseUid: account.uid });
    expect((await me(cookieFrom(ok))).statusCode).toBe(200);

    // The uid and email sent beside the token are claims: they must match it.
    const otherUid = await post("/api/auth/login", {
      email: learner.email,
      firebaseUid: "someone-else",
      firebaseIdToken: idToken,
    });
    expect(otherUid.statusCode).toBe(401);
    const otherEmail = await post("/api/auth/login", {
      email: "victim@example.com",
      firebaseIdToken: idToken,
    });
    expect(otherEmail.statusCode).toBe(401);
    expect(otherEmail.cookies.find((c) => c.name === "credo_session")).toBeUndefined();
  });

  it("firebase-sync binds a verified uid to the pre-registered user with its verified email", async () => {
    const learner = await quickUser(ctx, { email: email() });
    const account = await emulator.signUp(learner.email.toUpperCase(), "whatever-pass");
    await emulator.update(account.uid, { emailVerified: true });
    const { idToken } = await emulator.signIn(learner.email, "whatever-pass");

    const response = await post("/api/auth/firebase-sync", {
      firebaseIdToken: idToken,
      firebaseUid: account.uid,
      email: learner.email,
      name: "Ignored Name",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      id: learner.id,
      firebaseUid: account.uid,
      name: learner.name,
    });
    expect((await userById(ctx, learner.id))?.firebaseUid).toBe(account.uid);
    expect((await me(cookieFrom(response))).json().user.id).toBe(learner.id);
  });

  it("never binds an unverified email: an account created for someone else's address gets nothing", async () => {
    const victim = await quickUser(ctx, { email: email(), password: null, passwordSetup: false });
    // Anyone can create an identity-service account for any address.
    const squatter = await emulator.signUp(victim.email, "attacker-pass");

    const sync = await post("/api/auth/firebase-sync", { firebaseIdToken: squatter.idToken });
    expect(sync.statusCode).toBe(403);
    const login = await post("/api/auth/login", {
      email: victim.email,
      firebaseIdToken: squatter.idToken,
    });
    expect(login.statusCode).toBe(403);
    expect((await userById(ctx, victim.id))?.firebaseUid).toBeNull();
  });

  it("a token for another email cannot take over a pre-registered account", async () => {
    const victim = await quickUser(ctx, { email: email(), password: null, passwordSetup: false });
    const attacker = await emulator.signUp(email(), "attacker-pass");
    await emulator.update(attacker.uid, { emailVerified: true });
    const { idToken } = await emulator.signIn(
      (await emulator.lookup(attacker.uid))!.email!,
      "attacker-pass",
    );

    for (const payload of [
      { firebaseIdToken: idToken, email: victim.email },
      { firebaseIdToken: idToken, firebaseUid: attacker.uid, email: victim.email },
    ]) {
      expect((await post("/api/auth/firebase-sync", payload)).statusCode).toBe(401);
      expect((await post("/api/auth/login", payload)).statusCode).toBe(401);
    }
    // With its own (unregistered) email it is simply not admitted.
    const own = await post("/api/auth/firebase-sync", { firebaseIdToken: idToken });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({ message: MESSAGES.accessDenied, code: "auth.access_denied" });
    // Setting the victim's password with it fails too.
    const setup = await post("/api/auth/setup-password", {
      email: victim.email,
      password: "attacker-pass",
      name: "Attacker",
      firebaseIdToken: idToken,
    });
    expect(setup.statusCode).toBe(401);
    expect((await userById(ctx, victim.id))?.firebaseUid).toBeNull();
  });

  it("refuses a uid that is already bound to another user", async () => {
    const first = await setUpLearner(ctx);
    const second = await quickUser(ctx, { email: email(), password: null, passwordSetup: false });
    // The first learner's account now claims the second learner's address.
    await emulator.update(first.account.uid, { email: second.email });
    const { idToken } = await emulator.signIn(second.email, first.password);

    const setup = await post("/api/auth/setup-password", {
      email: second.email,
      password: "second-pass",
      name: "Second",
      firebaseIdToken: idToken,
    });
    expect(setup.statusCode).toBe(409);
    expect((await userById(ctx, second.id))?.passwordSetup).toBe(false);
    expect((await userById(ctx, second.id))?.firebaseUid).toBeNull();
  });

  it("refuses forged, garbage and revoked tokens", async () => {
    const { learner, account, password } = await setUpLearner(ctx);
    const { idToken } = await emulator.signIn(learner.email, password);
    const [header, , signature] = idToken.split(".");
    // A payload for an account the identity service does not have.
    const forgedPayload = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(idToken.split(".")[1]!, "base64url").toString()),
        user_id: "forged-uid",
        sub: "forged-uid",
      }),
    ).toString("base64url");
    for (const token of [`${header}.${forgedPayload}.${signature}`, "not-a-jwt", "a.b.c"]) {
      const response = await post("/api/auth/firebase-sync", { firebaseIdToken: token });
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toMatch(/stack|firebase-admin|at \w+ \(/i);
    }

    // Revocation is checked: a token minted before revokeRefreshTokens no longer works.
    // Tokens are valid from a whole second on: revoke from the second after this one's.
    const { auth_time: authTime } = JSON.parse(
      Buffer.from(idToken.split(".")[1]!, "base64url").toString(),
    ) as { auth_time: number };
    await emulator.update(account.uid, { validSince: String(authTime + 1) });
    const revoked = await post("/api/auth/login", {
      email: learner.email,
      firebaseIdToken: idToken,
    });
    expect(revoked.statusCode).toBe(401);
  });

  it("restricting disables the identity account, unrestricting enables it, deleting deletes it", async () => {
    const { learner, account, password } = await setUpLearner(ctx);
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const patch = (url: string) =>
      ctx.app.inject({ method: "PATCH", url, headers: { cookie: adminCookie } });

    const { idToken } = await emulator.signIn(learner.email, password);
    expect((await patch(`/api/users/learners/${learner.id}/restrict`)).statusCode).toBe(200);
    expect((await emulator.lookup(account.uid))?.disabled).toBe(true);
    await expect(emulator.signIn(learner.email, password)).rejects.toThrow(/USER_DISABLED/);
    // A token issued before the restriction is refused as well (disabled account).
    const before = await post("/api/auth/login", {
      email: learner.email,
      firebaseIdToken: idToken,
    });
    expect([401, 403]).toContain(before.statusCode);

    expect((await patch(`/api/users/learners/${learner.id}/restrict`)).statusCode).toBe(200);
    expect((await emulator.lookup(account.uid))?.disabled).toBe(false);
    const again = await emulator.signIn(learner.email, password);
    const login = await post("/api/auth/login", {
      email: learner.email,
      firebaseIdToken: again.idToken,
    });
    expect(login.statusCode).toBe(200);

    const removed = await ctx.app.inject({
      method: "DELETE",
      url: `/api/users/learners/${learner.id}`,
      headers: { cookie: adminCookie },
    });
    expect(removed.statusCode).toBe(200);
    expect(await emulator.lookup(account.uid)).toBeUndefined();
  });

  it("keeps the identity service's password in step with a password change", async () => {
    const { learner, cookie } = await setUpLearner(ctx, "old-password");
    const response = await ctx.app.inject({
      method: "PUT",
      url: "/api/auth/profile",
      headers: { cookie },
      payload: {
        name: "Fire Learner",
        currentPassword: "old-password",
        newPassword: "new-password",
      },
    });
    expect(response.statusCode).toBe(200);
    await expect(emulator.signIn(learner.email, "old-password")).rejects.toThrow(
      /INVALID_(PASSWORD|LOGIN_CREDENTIALS)/,
    );
    expect((await emulator.signIn(learner.email, "new-password")).idToken).toBeTruthy();
  });

  it("keeps the server-only password path for accounts the identity service does not know", async () => {
    // SPEC section 4: when the identity service fails at sign-in, the client tries this.
    const admin = await quickAdmin(ctx);
    const response = await post("/api/auth/login", {
      email: admin.email,
      password: DEFAULT_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
  });

  it("asks an administrator with a second factor for it after an identity-service sign-in too", async () => {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const { secret } = (
      await ctx.app.inject({
        method: "POST",
        url: "/api/second-factor/totp",
        headers: { cookie: adminCookie },
      })
    ).json();
    const added = await post(
      "/api/second-factor/factors",
      { method: "totp", code: new TOTP({ secret: Secret.fromBase32(secret) }).generate() },
      adminCookie,
    );
    expect(added.statusCode).toBe(200);
    const account = await emulator.signUp(admin.email, "admin-fire-pass");
    await emulator.update(account.uid, { emailVerified: true });
    const { idToken } = await emulator.signIn(admin.email, "admin-fire-pass");

    const pending = await post("/api/auth/login", {
      email: admin.email,
      firebaseUid: account.uid,
      firebaseIdToken: idToken,
    });
    expect(pending.statusCode).toBe(200);
    expect(pending.json().secondFactor).toMatchObject({ methods: ["totp", "recovery"] });
    expect(pending.cookies.find((c) => c.name === "credo_session")).toBeUndefined();
    // Nor does the sync of a signed-in identity user skip the second step.
    const synced = await post("/api/auth/firebase-sync", {
      firebaseIdToken: idToken,
      firebaseUid: account.uid,
      email: admin.email,
    });
    expect(synced.statusCode).toBe(401);
    expect(synced.json().code).toBe("mfa.sign_in_required");
  });
});
