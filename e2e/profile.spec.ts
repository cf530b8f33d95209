import {
  answerConfirm,
  expect,
  expectToast,
  fromAddress,
  signIn,
  test,
  uniqueEmail,
} from "./support/fixtures";
import { expectNoSeriousA11yViolations, screen, screensAtBothWidths } from "./support/screens";

test.describe("Profile", () => {
  test("a learner edits their details and changes their password", async ({
    page,
    createLearner,
  }) => {
    const learner = await createLearner({ phone: "+1 555 0101" });
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);

    await page.getByRole("link", { name: /profile/ }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();

    const email = page.getByLabel("Email address");
    await expect(email).toHaveValue(learner.email);
    await expect(email).toHaveAttribute("readonly", "");
    await expect(page.getByText("Email cannot be changed")).toBeVisible();
    await expect(page.getByLabel("Phone")).toHaveValue("+1 555 0101");
    await expect(page.getByText("Learner", { exact: true })).toBeVisible();
    await expect(page.getByText("Active", { exact: true })).toBeVisible();
    await screen(page, "profile-learner");

    // Name is required.
    const name = page.getByLabel("Full name");
    await name.fill("");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();

    // Save name and phone.
    await name.fill("Lena Learner");
    await page.getByLabel("Phone").fill("+1 555 0199");
    const saveRequest = page.waitForRequest("**/api/auth/profile");
    await page.getByRole("button", { name: "Save changes" }).click();
    const saveBody = (await saveRequest).postDataJSON();
    expect(saveBody).toMatchObject({ name: "Lena Learner", phone: "+1 555 0199" });
    expect(saveBody.userId).toEqual(expect.any(String));
    expect(saveBody).not.toHaveProperty("newPassword");
    expect(saveBody).not.toHaveProperty("currentPassword");
    await expectToast(page, "Profile updated successfully");
    // The cached user is updated: the header shows the new name.
    await expect(page.getByRole("banner")).toContainText("Lena Learner");

    // Password change.
    const update = page.getByRole("button", { name: "Update Password" });
    await expect(update).toBeDisabled();
    await page.getByLabel("Current password", { exact: true }).fill(learner.password);
    await page.getByLabel("New password", { exact: true }).fill("brand-new-pass");
    await expect(update).toBeEnabled();
    await page.getByLabel("Confirm new password", { exact: true }).fill("brand-new-typo");
    await update.click();
    await expectToast(page, "Password mismatch", "New password and confirm password do not match.");

    await page.getByLabel("Current password", { exact: true }).fill("not-my-password");
    await page.getByLabel("Confirm new password", { exact: true }).fill("brand-new-pass");
    await update.click();
    await expectToast(page, "Failed to update profile", "Current password is incorrect.");

    await page.getByLabel("Current password", { exact: true }).fill(learner.password);
    const passwordRequest = page.waitForRequest("**/api/auth/profile");
    await update.click();
    expect((await passwordRequest).postDataJSON()).toMatchObject({
      currentPassword: learner.password,
      newPassword: "brand-new-pass",
    });
    await expectToast(page, "Profile updated successfully");
    await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");

    // Reset via Email answers with one of its two toasts (the route may not exist yet).
    await page.getByRole("button", { name: "Reset via Email" }).click();
    await expect(page.getByTestId("toast-title")).toHaveText(
      /^(Password reset email sent|Failed to send reset email)$/,
    );

    // Back goes to the learner area.
    await page.getByRole("link", { name: "Back to dashboard" }).click();
    await expect(page).toHaveURL(/\/learner$/);

    // The new password works.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await signIn(page, { email: learner.email, password: "brand-new-pass" });
    await expect(page).toHaveURL(/\/learner$/);
  });

  test("a learner signs out the browsers they left signed in elsewhere", async ({
    page,
    browser,
    createLearner,
  }) => {
    const learner = await createLearner();
    const stamp = uniqueEmail("sessions");
    // Two other computers, signed in before this one.
    const elsewhere = [];
    for (const computer of ["library", "laptop"]) {
      const context = await browser.newContext({
        extraHTTPHeaders: fromAddress("profile-sessions", stamp, computer),
      });
      const other = await context.newPage();
      await signIn(other, learner);
      await expect(other).toHaveURL(/\/learner$/);
      elsewhere.push({ context, page: other });
    }
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto("/profile");
    const card = page.getByRole("region", { name: "Where you're signed in" });
    const rows = card.getByRole("listitem");
    // This browser, the two computers, and the sign-in that set the learner's password.
    await expect(rows).toHaveCount(4);
    await expect(rows.first()).toContainText("This browser");
    await expect(rows.first().getByRole("button")).toHaveCount(0);
    await screensAtBothWidths(page, "profile-sessions");
    await expectNoSeriousA11yViolations(page, "profile-sessions");

    // One of them, by its own button: that browser is signed out at its next step.
    await rows
      .nth(1)
      .getByRole("button", { name: /^Sign out .*, signed in / })
      .click();
    await expectToast(page, "Signed out");
    await expect(rows).toHaveCount(3);
    // The newest other sign-in is listed first: the laptop's.
    const signedOut = elsewhere[1]!.page;
    await signedOut.reload();
    await expect(signedOut.getByRole("button", { name: "Sign In" })).toBeVisible();

    // Every other one at once, after saying yes.
    await card.getByRole("button", { name: "Sign out everywhere else" }).click();
    expect(await answerConfirm(page, "confirm")).toContain("This one stays signed in.");
    await expectToast(page, "Signed out everywhere else", "2 other sessions signed out.");
    await expect(rows).toHaveCount(1);
    await expect(card).toContainText("This is the only browser signed in to your account.");
    const last = elsewhere[0]!.page;
    await last.reload();
    await expect(last.getByRole("button", { name: "Sign In" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
    for (const { context } of elsewhere) await context.close();
  });

  test("an admin's profile sits in the admin layout and goes back to /admin", async ({
    page,
    admin,
  }) => {
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.getByRole("link", { name: /View profile/ }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByText("Administrator", { exact: true })).toBeVisible();
    await screen(page, "profile-admin");
    await page.getByRole("link", { name: "Back to dashboard" }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });
});
