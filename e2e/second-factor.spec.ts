import type { Page, TestInfo } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import {
  type Account,
  ADMIN_KEY,
  expect,
  fromAddress,
  signIn,
  test,
  uniqueEmail,
} from "./support/fixtures";
import { mailsTo, waitForMailLink } from "./support/learning";
import { screensAtBothWidths } from "./support/screens";
import { SERVER_URL } from "./support/server-url";

// WebAuthn takes a domain, never an address: the portal keeps its passkeys on `localhost`
// when PUBLIC_URL names 127.0.0.1 (people/second-factor/passkeys.ts), so these tests browse there.
test.use({ baseURL: SERVER_URL.replace("127.0.0.1", "localhost") });

/** An administrator of this test alone: the others' sign-in must not change under them. */
async function newAdmin(page: Page, testInfo: TestInfo): Promise<Account> {
  const account = {
    email: uniqueEmail("second-factor"),
    password: "admin-pass-123",
    name: "Sam Secure",
  };
  const res = await page.request.post("/api/auth/setup-admin-password", {
    data: { ...account, adminKey: ADMIN_KEY },
    headers: fromAddress(testInfo.project.name, ...testInfo.titlePath, "admin setup"),
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.context().clearCookies();
  return account;
}

/** Chromium's virtual authenticator: a platform passkey that verifies its user at once. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

async function signOut(page: Page) {
  await page.context().clearCookies();
  await page.goto("/");
}

test.describe("Second factor", () => {
  test("an administrator adds a passkey and signs in with it", async ({ page }, testInfo) => {
    const admin = await newAdmin(page, testInfo);
    await addVirtualAuthenticator(page);
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);

    await page.goto("/profile");
    const card = page.getByRole("region", { name: "Second factor" });
    await expect(card.getByText("No second factor yet")).toBeVisible();
    await card.getByRole("button", { name: "Add a passkey" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a passkey" });
    await dialog.getByLabel("Name").fill("This laptop");
    await dialog.getByRole("button", { name: "Create passkey" }).click();

    const codes = page.getByRole("dialog", { name: "Recovery codes" });
    await expect(codes.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
    await screensAtBothWidths(page, "second-factor-recovery-codes");
    await codes.getByRole("button", { name: "I saved them" }).click();
    await expect(card.getByText("This laptop")).toBeVisible();
    await expect(card.getByText(/Last used never/)).toBeVisible();
    await expect(card.getByText("10 of 10 recovery codes left")).toBeVisible();
    await screensAtBothWidths(page, "second-factor-profile");

    // The password alone no longer signs in: the passkey does.
    await signOut(page);
    await signIn(page, admin);
    await expect(page.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await screensAtBothWidths(page, "second-factor-sign-in");
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await expect(page).toHaveURL(/\/admin$/);

    await page.goto("/profile");
    await expect(card.getByText(/Last used never/)).toHaveCount(0);
    await page.goto("/admin/settings");
    const rule = page.getByRole("region", { name: "Administrator sign-in" });
    await expect(rule.getByRole("switch", { name: /Require a second factor/ })).not.toBeChecked();
    await rule.scrollIntoViewIfNeeded();
    await screensAtBothWidths(page, "second-factor-settings");
  });

  test("an administrator adds an authenticator app and signs in with its code", async ({
    page,
  }, testInfo) => {
    const admin = await newAdmin(page, testInfo);
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);

    await page.goto("/profile");
    const card = page.getByRole("region", { name: "Second factor" });
    await card.getByRole("button", { name: "Add an authenticator app" }).click();
    const dialog = page.getByRole("dialog", { name: "Add an authenticator app" });
    await expect(dialog.getByRole("img", { name: /QR code/ })).toBeVisible();
    const secret = ((await dialog.getByTestId("totp-secret").textContent()) ?? "").replace(
      /\s/g,
      "",
    );
    const app = new TOTP({ secret: Secret.fromBase32(secret) });
    await screensAtBothWidths(page, "second-factor-authenticator-app");
    await dialog.getByLabel("Code from the app").fill(app.generate());
    await dialog.getByRole("button", { name: "Verify and add" }).click();
    const codes = page.getByRole("dialog", { name: "Recovery codes" });
    const recoveryCode = (await codes
      .getByTestId("recovery-codes")
      .locator("li")
      .first()
      .textContent())!;
    await codes.getByRole("button", { name: "I saved them" }).click();
    await expect(card.getByText("Authenticator app", { exact: true }).first()).toBeVisible();

    await signOut(page);
    await signIn(page, admin);
    const code = page.getByLabel("Code from your authenticator app");
    // The code that confirmed the app is spent: the app's next one is within the clock's leeway.
    await code.fill(app.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/admin$/);

    // A reset link proves the mailbox only: the new password still leads to the second step.
    await signOut(page);
    const seen = mailsTo(admin.email).length;
    const asked = await page.request.post("/api/auth/reset-password", {
      data: { email: admin.email },
      headers: fromAddress(testInfo.project.name, ...testInfo.titlePath, "reset"),
    });
    expect(asked.status()).toBe(200);
    const { link } = await waitForMailLink(admin.email, /\/reset-password\?token=[\w-]+$/, {
      seen,
    });
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByLabel("New password", { exact: true }).fill("admin-pass-456");
    await page.getByLabel("Confirm new password", { exact: true }).fill("admin-pass-456");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Password updated" })).toBeVisible();
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await screensAtBothWidths(page, "second-factor-after-reset");
    await page.getByLabel("Recovery code").fill(recoveryCode);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });
});
