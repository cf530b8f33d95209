import type { APIRequestContext, Page } from "@playwright/test";
import {
  FIREBASE_CLI_MISSING_MESSAGE,
  firebaseCliMissing,
} from "../src/server/testing/firebase-emulator";
import { type FirebasePortal, startFirebasePortal } from "./support/firebase-portal";
import { ADMIN_KEY, expect, expectToast, fromAddress, test, uniqueEmail } from "./support/fixtures";
import { holdRequests } from "./support/held-requests";
import { mailsTo, waitForMailLink } from "./support/learning";
import { screen } from "./support/screens";

/**
 * The identity service for real: a second portal started with the FIREBASE_* settings and
 * FIREBASE_AUTH_EMULATOR_HOST, the browser's Firebase SDK talking to the Auth emulator.
 */
const SETUP_LINK = /\/\?setup=1&email=[^&\s]+&token=[A-Za-z0-9_-]{20,}$/;
const RESET_LINK = /\/reset-password\?token=[A-Za-z0-9_-]{20,}$/;
/** The lazily loaded chunk with the Firebase SDK (src/web/features/auth/identity/). */
const IDENTITY_CHUNK = /\/assets\/identity-flows-[\w-]+\.js$/;

test("without Firebase settings the portal never downloads the Firebase SDK", async ({ page }) => {
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (IDENTITY_CHUNK.test(request.url()) || /googleapis|firebase/.test(request.url())) {
      fetched.push(request.url());
    }
  });
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  await page.getByRole("button", { name: "Set Your Password" }).click();
  await expect(page.getByRole("dialog", { name: "Set Up Your Password" })).toBeVisible();
  await page.keyboard.press("Escape");
  // A sign-in is the last point where the SDK would load: with Firebase it is imported
  // before the login request is sent (and the identity listener before that).
  await page.getByLabel("Email address").fill(uniqueEmail("nobody"));
  await page.getByLabel("Password", { exact: true }).fill("not-a-password");
  const login = page.waitForResponse("**/api/auth/login");
  await page.getByRole("button", { name: "Sign In" }).click();
  expect((await login).status()).toBe(401);
  const resources = await page.evaluate(() =>
    performance.getEntriesByType("resource").map((entry) => entry.name),
  );
  expect(resources.some((url) => url.includes("/assets/"))).toBe(true);
  expect([...fetched, ...resources.filter((url) => IDENTITY_CHUNK.test(url))]).toEqual([]);
});

test.describe("Sign-in through Firebase Auth (emulator)", () => {
  test.skip(firebaseCliMissing, FIREBASE_CLI_MISSING_MESSAGE);
  test.describe.configure({ mode: "serial" });

  let portal: FirebasePortal;
  let adminApi: APIRequestContext;
  const admin = { email: uniqueEmail("fb-admin"), password: "admin-pass-123", name: "Fia Admin" };

  test.beforeAll(async ({ playwright }, testInfo) => {
    test.slow();
    portal = await startFirebasePortal();
    adminApi = await playwright.request.newContext({
      baseURL: portal.url,
      extraHTTPHeaders: fromAddress(...testInfo.titlePath, testInfo.repeatEachIndex, "admin api"),
    });
    const created = await adminApi.post("/api/auth/setup-admin-password", {
      data: { ...admin, adminKey: ADMIN_KEY },
    });
    expect(created.status(), await created.text()).toBe(200);
  });
  test.afterAll(async () => {
    await adminApi?.dispose();
    await portal?.stop();
  });

  async function addLearner(name: string) {
    const email = uniqueEmail("fb-learner");
    const res = await adminApi.post("/api/auth/register", { data: { email, name } });
    expect(res.status(), await res.text()).toBe(201);
    return { email, name, id: ((await res.json()) as { id: string }).id };
  }

  /**
   * Signs in on the sign-in page, clicking 'Sign In' before the page has its configuration
   * (GET /api/config is held back until then), as a quick typist or a password manager may:
   * the sign-in still goes through the identity service.
   */
  async function signInOnPage(page: Page, email: string, password: string) {
    const configUrl = `${portal.url}/api/config`;
    const settings = await holdRequests(page, configUrl);
    await page.goto(`${portal.url}/`);
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    const request = page.waitForRequest(`${portal.url}/api/auth/login`);
    await page.getByRole("button", { name: "Sign In" }).click();
    settings.release();
    const sent = await request;
    await page.unroute(configUrl);
    return sent;
  }

  test("an invited learner sets a password through Firebase and signs in with it", async ({
    page,
  }) => {
    const learner = await addLearner("Fern Firebase");
    const { link } = await waitForMailLink(learner.email, SETUP_LINK, { dataDir: portal.dataDir });
    const config = await (await page.request.get(`${portal.url}/api/config`)).json();
    expect(config.firebase).toMatchObject({ emulatorHost: portal.emulator.host });

    // The Firebase SDK is a chunk of its own, fetched only on a portal that has Firebase.
    const sdkChunk = page.waitForResponse(IDENTITY_CHUNK);
    await page.goto(link);
    expect((await sdkChunk).ok()).toBe(true);
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await expect(dialog.getByLabel("Email address")).toHaveValue(learner.email);
    await expect(dialog.getByLabel("Email address")).toHaveAttribute("readonly", "");
    await dialog.getByRole("button", { name: "Verify" }).click();
    await expect(dialog.getByText("✓ Email verified")).toBeVisible();
    await dialog.getByLabel("Full name").fill("Fern Firebase");
    await dialog.getByLabel("Password", { exact: true }).fill("fern-pass-1");
    await dialog.getByLabel("Confirm password", { exact: true }).fill("fern-pass-1");
    await screen(page, "firebase-invitation-setup");

    const signUp = page.waitForRequest(/accounts:signUp/);
    const setup = page.waitForRequest(`${portal.url}/api/auth/setup-password`);
    await dialog.getByRole("button", { name: "Set Password & Continue" }).click();
    // The browser created the account at the identity service (the emulator)...
    expect((await signUp).url()).toContain(portal.emulator.host);
    // ...and sent its ID token, which the server verified and bound.
    const body = (await setup).postDataJSON();
    expect(body.firebaseIdToken).toMatch(/^[\w-]+\.[\w-]+\./);
    await expect(page).toHaveURL(/\/learner$/);
    await expectToast(page, "Password set successfully!");
    const me = await (await page.request.get(`${portal.url}/api/auth/me`)).json();
    expect(me.user.firebaseUid).toBe(body.firebaseUid);
    expect((await portal.emulator.lookup(body.firebaseUid))?.email).toBe(learner.email);

    // Log out signs out of the identity service too; then sign in through it.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(`${portal.url}/`);
    await expectToast(page, "Logged out successfully");
    const login = await signInOnPage(page, learner.email, "fern-pass-1");
    const loginBody = login.postDataJSON();
    expect(loginBody).toMatchObject({ email: learner.email, firebaseUid: me.user.firebaseUid });
    expect(loginBody.password).toBeUndefined();
    expect(loginBody.firebaseIdToken).toBeTruthy();
    await expect(page).toHaveURL(/\/learner$/);
    await expectToast(page, "Login successful", "Welcome back!");
    await expect(page.getByRole("heading", { level: 1, name: "My learning" })).toBeVisible();
    await screen(page, "firebase-learner-signed-in");
  });

  test("without an identity account, sign-in falls back to the server's own password", async ({
    page,
  }) => {
    // The administrator was created through admin setup: the identity service has no
    // account, its sign-in fails, and the portal tries the server-only path (SPEC section 4).
    const identityAttempt = page.waitForResponse(/accounts:signInWithPassword/);
    const login = await signInOnPage(page, admin.email, admin.password);
    expect((await identityAttempt).status()).toBe(400);
    expect(login.postDataJSON()).toMatchObject({ email: admin.email, password: admin.password });
    expect(login.postDataJSON().firebaseIdToken).toBeUndefined();
    await expect(page).toHaveURL(/\/admin$/);
  });

  test("'Forgot password?' sets a new password that the identity service accepts too", async ({
    page,
  }) => {
    const learner = await addLearner("Rory Reset");
    const { link: invite } = await waitForMailLink(learner.email, SETUP_LINK, {
      dataDir: portal.dataDir,
    });
    await page.goto(invite);
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await dialog.getByRole("button", { name: "Verify" }).click();
    await dialog.getByLabel("Full name").fill("Rory Reset");
    await dialog.getByLabel("Password", { exact: true }).fill("rory-old-1");
    await dialog.getByLabel("Confirm password", { exact: true }).fill("rory-old-1");
    await dialog.getByRole("button", { name: "Set Password & Continue" }).click();
    await expect(page).toHaveURL(/\/learner$/);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(`${portal.url}/`);

    const seen = mailsTo(learner.email, portal.dataDir).length;
    await page.getByRole("button", { name: "Forgot password?" }).click();
    const forgot = page.getByRole("dialog", { name: "Forgot your password?" });
    await forgot.getByLabel("Email address").fill(learner.email);
    await forgot.getByRole("button", { name: "Send reset link" }).click();
    await expectToast(page, "Password reset email sent");
    const { link } = await waitForMailLink(learner.email, RESET_LINK, {
      seen,
      dataDir: portal.dataDir,
    });
    await page.goto(link);
    await page.getByLabel("New password", { exact: true }).fill("rory-new-2");
    await page.getByLabel("Confirm new password", { exact: true }).fill("rory-new-2");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page).toHaveURL(/\/learner$/);

    // The identity service now has the new password, not the old one.
    await expect(portal.emulator.signIn(learner.email, "rory-old-1")).rejects.toThrow();
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(`${portal.url}/`);
    const login = await signInOnPage(page, learner.email, "rory-new-2");
    expect(login.postDataJSON().firebaseIdToken).toBeTruthy();
    await expect(page).toHaveURL(/\/learner$/);
  });

  test("a restricted learner's identity account is disabled and sign-in is refused", async ({
    page,
  }) => {
    const learner = await addLearner("Remy Restricted");
    const { link: invite } = await waitForMailLink(learner.email, SETUP_LINK, {
      dataDir: portal.dataDir,
    });
    await page.goto(invite);
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await dialog.getByRole("button", { name: "Verify" }).click();
    await dialog.getByLabel("Full name").fill("Remy Restricted");
    await dialog.getByLabel("Password", { exact: true }).fill("remy-pass-1");
    await dialog.getByLabel("Confirm password", { exact: true }).fill("remy-pass-1");
    const setup = page.waitForRequest(`${portal.url}/api/auth/setup-password`);
    await dialog.getByRole("button", { name: "Set Password & Continue" }).click();
    const uid = (await setup).postDataJSON().firebaseUid as string;
    await expect(page).toHaveURL(/\/learner$/);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(`${portal.url}/`);

    const restricted = await adminApi.patch(`/api/users/learners/${learner.id}/restrict`);
    expect(restricted.status()).toBe(200);
    expect((await portal.emulator.lookup(uid))?.disabled).toBe(true);

    await page.setViewportSize({ width: 390, height: 844 });
    await signInOnPage(page, learner.email, "remy-pass-1");
    await expectToast(
      page,
      "Login failed",
      "Your account has been restricted. Please contact the administrator.",
    );
    await expect(page).toHaveURL(`${portal.url}/`);
    await screen(page, "firebase-restricted-mobile");
  });
});
