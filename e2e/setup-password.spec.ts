import { expect, expectToast, test, toastLocator, uniqueEmail } from "./support/fixtures";
import {
  expectNoSeriousA11yViolations,
  SCREENSHOT_DIR,
  screen,
  screensAtBothWidths,
} from "./support/screens";

test.describe("First-time password setup", () => {
  test("a learner goes through every state of the setup dialog", async ({
    page,
    createLearner,
  }) => {
    const learner = await createLearner({ withPassword: false });

    await page.goto("/");
    await page.getByRole("button", { name: "Set Your Password" }).click();
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      "Welcome to Credo LMS! Please set up your password to continue.",
    );
    const email = dialog.getByLabel("Email address");
    const verify = dialog.getByRole("button", { name: "Verify" });
    const submit = dialog.getByRole("button", { name: "Set Password & Continue" });
    await expect(verify).toBeDisabled();
    await expect(submit).toBeDisabled();
    // A disabled button says why, and the button points at the reason.
    const why = dialog.locator("#setup-submit-hint");
    await expect(why).toHaveText(
      "Verify your email first: the password fields appear once it is registered.",
    );
    await expect(submit).toHaveAttribute("aria-describedby", "setup-submit-hint");
    await screensAtBothWidths(page, "setup-dialog-empty");

    // Empty email: Enter in the field asks for an address.
    await email.focus();
    await page.keyboard.press("Enter");
    await expectToast(page, "Email required", "Please enter your email address.");

    // Unregistered email: status line, toast, and no further fields.
    await email.fill(uniqueEmail("stranger"));
    await verify.click();
    await expect(dialog.getByText("✗ Email not registered")).toBeVisible();
    await expectToast(
      page,
      "Email not found",
      "This email is not registered by an administrator. Please contact your admin.",
    );
    await expect(dialog.getByLabel("Full name")).toHaveCount(0);
    await screen(page, "setup-dialog-not-registered");

    // Registered email: verified, and the name and password fields appear.
    await email.fill(learner.email);
    await expect(dialog.getByText("✗ Email not registered")).toHaveCount(0);
    await verify.click();
    await expect(dialog.getByText("✓ Email verified")).toBeVisible();
    await expectToast(
      page,
      "Email verified",
      "Your email is registered. You can now set your password.",
    );
    const name = dialog.getByLabel("Full name");
    const password = dialog.getByLabel("Password", { exact: true });
    const confirm = dialog.getByLabel("Confirm password", { exact: true });
    await expect(name).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Show password" })).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Show confirm password" })).toBeVisible();
    await screen(page, "setup-dialog-verified");

    // Submit stays disabled until name, password and confirmation are all filled, saying
    // which are still missing.
    await expect(why).toHaveText(
      "To continue, enter your full name, a password and the password again.",
    );
    await name.fill("Lee Learner");
    await password.fill("abcdef");
    await expect(submit).toBeDisabled();
    await expect(why).toHaveText("To continue, enter the password again.");
    await screensAtBothWidths(page, "setup-dialog-missing-confirmation");

    // Mismatch.
    await confirm.fill("abcdeg");
    await submit.click();
    await expectToast(page, "Password mismatch", "Passwords do not match.");

    // Too short.
    await password.fill("abc");
    await confirm.fill("abc");
    await submit.click();
    await expectToast(page, "Password too short", "Password must be at least 6 characters long.");

    // Editing the email resets verification; submitting then asks to verify first.
    await email.fill(`${learner.email}x`);
    await expect(dialog.getByText("✓ Email verified")).toHaveCount(0);
    await expect(name).toHaveCount(0);
    await submit.click();
    await expectToast(page, "Email verification required", "Please verify your email first.");

    // Verify again and finish.
    await email.fill(learner.email);
    await verify.click();
    await expect(dialog.getByText("✓ Email verified")).toBeVisible();
    await password.fill("learner-pass-1");
    await confirm.fill("learner-pass-1");
    await submit.click();
    await expect(page).toHaveURL(/\/learner$/);
    await expect(dialog).toBeHidden();
    await expectToast(page, "Password set successfully!");
    await expect(page.getByRole("heading", { level: 1, name: "My learning" })).toBeVisible();

    // Once set, the dialog says so and closes by itself after 2 seconds: on a clock moved by
    // hand, so a slow machine cannot make the toast outlive or precede it.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.clock.install();
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await page.getByRole("button", { name: "Set Your Password" }).click();
    await expect(dialog).toBeVisible();
    await email.fill(learner.email);
    await verify.click();
    await expectToast(
      page,
      "Password already set",
      "You have already set up your password. Please use the regular login or forgot password option.",
    );
    // Axe needs running timers: the screenshot is taken now, axe checks the page below.
    await page.screenshot({
      path: `${SCREENSHOT_DIR}/setup-dialog-already-set.png`,
      fullPage: true,
    });
    await page.clock.runFor(1_900);
    await expect(dialog).toBeVisible();
    await page.clock.runFor(200);
    await expect(dialog).toBeHidden();
    await expect(toastLocator(page)).toBeVisible();
    await page.clock.resume();
    await expectNoSeriousA11yViolations(page, "setup-dialog-already-set");
  });

  test("a used or expired invitation link opens the dialog with the email locked, to verify by hand", async ({
    page,
    createLearner,
  }) => {
    const learner = await createLearner({ withPassword: false });
    const lookup = page.waitForResponse("**/api/auth/invitation");
    await page.goto(`/?setup=1&email=${encodeURIComponent(learner.email)}&token=invite-token-1`);
    expect((await lookup).status()).toBe(404);
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await expect(dialog).toBeVisible();
    const email = dialog.getByLabel("Email address");
    await expect(email).toHaveValue(learner.email);
    await expect(email).toHaveAttribute("readonly", "");
    await expect(dialog.getByRole("status")).toHaveText(
      "This invitation link has already been used or has expired. Press Verify to continue.",
    );
    await expect(dialog.getByText("✓ Email verified")).toHaveCount(0);
    await screen(page, "setup-dialog-stale-link");
    await dialog.getByRole("button", { name: "Verify" }).click();
    await expect(dialog.getByText("✓ Email verified")).toBeVisible();
    await screen(page, "setup-dialog-invited");

    await dialog.getByLabel("Full name").fill("Ivy Invited");
    await dialog.getByLabel("Password", { exact: true }).fill("invited-pass-1");
    await dialog.getByLabel("Confirm password", { exact: true }).fill("invited-pass-1");
    const setupRequest = page.waitForRequest("**/api/auth/setup-password");
    await dialog.getByRole("button", { name: "Set Password & Continue" }).click();
    const body = (await setupRequest).postDataJSON();
    expect(body).toMatchObject({
      email: learner.email,
      password: "invited-pass-1",
      name: "Ivy Invited",
    });
    // The link proved nothing, so its token is not passed on.
    expect(body.inviteToken).toBeUndefined();
    expect(body.firebaseUid).toMatch(/^demo_/);
  });

  test("an address edited while it is being checked is never verified", async ({
    page,
    createLearner,
  }) => {
    const learner = await createLearner({ withPassword: false });
    await page.goto("/");
    await page.getByRole("button", { name: "Set Your Password" }).click();
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    const email = dialog.getByLabel("Email address");
    const verify = dialog.getByRole("button", { name: "Verify" });

    // The registered address's check is held until the address has been edited.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      "**/api/auth/check-email",
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await email.fill(learner.email);
    const asked = page.waitForRequest("**/api/auth/check-email");
    await verify.click();
    await asked;
    await expect(dialog.getByText("Checking…")).toBeVisible();

    // Editing the address ends the check at once: Verify is offered for the new address.
    await email.fill(uniqueEmail("stranger"));
    await expect(dialog.getByText("Checking…")).toHaveCount(0);
    await expect(verify).toBeEnabled();
    const answered = page.waitForResponse("**/api/auth/check-email");
    release();
    expect((await answered).status()).toBe(200);

    // The held answer was about the old address: the new one is checked on its own.
    await verify.click();
    await expect(dialog.getByText("✗ Email not registered")).toBeVisible();
    await expectToast(
      page,
      "Email not found",
      "This email is not registered by an administrator. Please contact your admin.",
    );
    await expect(dialog.getByText("✓ Email verified")).toHaveCount(0);
    await expect(dialog.getByLabel("Full name")).toHaveCount(0);
  });
});
