import { expect, expectToast, signIn, test, toastLocator, uniqueEmail } from "./support/fixtures";
import { mailsTo, waitForMailLink } from "./support/learning";
import { screen } from "./support/screens";

const RESET_LINK = /\/reset-password\?token=[A-Za-z0-9_-]{20,}$/;

test.describe("Password reset by email", () => {
  test("'Forgot password?' leads through the emailed link to a new password", async ({
    page,
    createLearner,
  }) => {
    const learner = await createLearner();
    const seen = mailsTo(learner.email).length;

    await page.goto("/");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    const dialog = page.getByRole("dialog", { name: "Forgot your password?" });
    await expect(dialog).toBeVisible();
    const email = dialog.getByLabel("Email address");
    await expect(email).toBeFocused();
    await screen(page, "forgot-password-dialog");

    // The address is checked before anything is sent.
    await dialog.getByRole("button", { name: "Send reset link" }).click();
    await expect(dialog.getByText("Email is required")).toBeVisible();
    await email.fill("not-an-email");
    await dialog.getByRole("button", { name: "Send reset link" }).click();
    await expect(dialog.getByText("Enter a valid email address")).toBeVisible();

    await email.fill(learner.email.toUpperCase());
    const request = page.waitForRequest("**/api/auth/reset-password");
    await dialog.getByRole("button", { name: "Send reset link" }).click();
    expect((await request).postDataJSON()).toEqual({ email: learner.email });
    await expectToast(page, "Password reset email sent");
    const sent = page.getByRole("dialog", { name: "Check your inbox" });
    await expect(sent).toContainText(`If an account exists for ${learner.email}`);
    await screen(page, "forgot-password-sent");
    await sent.getByRole("button", { name: "Done" }).click();
    await expect(sent).toBeHidden();
    await expect(page.getByRole("button", { name: "Forgot password?" })).toBeFocused();

    // The emailed link opens the reset page.
    const { mail, link } = await waitForMailLink(learner.email, RESET_LINK, { seen });
    expect(mail.subject).toMatch(/password/i);
    expect(link.startsWith("http://127.0.0.1:")).toBe(true);
    await page.goto(link);
    await expect(
      page.getByRole("heading", { level: 1, name: "Choose a new password" }),
    ).toBeVisible();
    const password = page.getByLabel("New password", { exact: true });
    const confirm = page.getByLabel("Confirm new password", { exact: true });
    await expect(password).toBeFocused();
    await screen(page, "reset-password");

    // Too short, then a mismatch, each explained beside its field.
    const submit = page.getByRole("button", { name: "Set new password" });
    await password.fill("abc");
    await confirm.fill("abc");
    await submit.click();
    await expect(page.getByText("Password must be at least 6 characters long.")).toBeVisible();
    await password.fill("fresh-pass-1");
    await confirm.fill("fresh-pass-2");
    await submit.click();
    await expect(page.getByText("Passwords do not match.")).toBeVisible();
    await screen(page, "reset-password-errors");

    // Show/hide toggles.
    await page.getByRole("button", { name: "Show new password" }).click();
    await expect(password).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Hide new password" }).click();
    await expect(password).toHaveAttribute("type", "password");
    await expect(page.getByRole("button", { name: "Show confirm new password" })).toBeVisible();

    await confirm.fill("fresh-pass-1");
    const token = new URL(link).searchParams.get("token");
    const confirmRequest = page.waitForRequest("**/api/auth/reset-password/confirm");
    await submit.click();
    expect((await confirmRequest).postDataJSON()).toEqual({ token, password: "fresh-pass-1" });

    // Signed in and sent to the learner area.
    await expect(page).toHaveURL(/\/learner$/);
    await expectToast(page, "Password updated");
    await expect(page.getByRole("heading", { level: 1, name: "My learning" })).toBeVisible();
    await expect(page.getByRole("banner")).toContainText(learner.name);

    // The link works once.
    await page.goto(link);
    await page.getByLabel("New password", { exact: true }).fill("another-pass-1");
    await page.getByLabel("Confirm new password", { exact: true }).fill("another-pass-1");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(
      page.getByText("This reset link is invalid or has expired. Please request a new one."),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Request a new link" })).toBeVisible();
    await screen(page, "reset-password-used-link");

    // Only the new password signs in now.
    await page.goto("/learner");
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await signIn(page, learner);
    await expectToast(page, "Login failed", "Invalid email or password.");
    await signIn(page, { email: learner.email, password: "fresh-pass-1" });
    await expect(page).toHaveURL(/\/learner$/);
  });

  test("an unknown email gets the same neutral answer and no mail", async ({
    page,
    createLearner,
  }) => {
    const stranger = uniqueEmail("stranger");
    const learner = await createLearner();
    const seen = mailsTo(learner.email).length;
    await page.goto("/");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    const dialog = page.getByRole("dialog", { name: "Forgot your password?" });
    await dialog.getByLabel("Email address").fill(stranger);
    await dialog.getByRole("button", { name: "Send reset link" }).click();
    await expectToast(page, "Password reset email sent");
    await expect(page.getByRole("dialog", { name: "Check your inbox" })).toBeVisible();
    // The server looks accounts up in the order asked: once a reset asked for afterwards
    // has been mailed, the unknown email's lookup has long been done.
    const afterwards = await page.request.post("/api/auth/reset-password", {
      data: { email: learner.email },
    });
    expect(afterwards.status(), await afterwards.text()).toBe(200);
    await waitForMailLink(learner.email, RESET_LINK, { seen });
    expect(mailsTo(stranger)).toHaveLength(0);
  });

  test("a failed request says so", async ({ page }) => {
    await page.route("**/api/auth/reset-password", (route) =>
      route.fulfill({ status: 503, body: "" }),
    );
    await page.goto("/");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    const dialog = page.getByRole("dialog", { name: "Forgot your password?" });
    await dialog.getByLabel("Email address").fill(uniqueEmail("anyone"));
    await dialog.getByRole("button", { name: "Send reset link" }).click();
    await expectToast(page, "Failed to send reset email", "Please try again later.");
    // The form stays, so the person can try again.
    await expect(dialog.getByRole("button", { name: "Send reset link" })).toBeEnabled();
  });

  test("the reset page without a token, or with a broken one, explains and offers a new link", async ({
    page,
  }) => {
    await page.goto("/reset-password");
    await expect(page.getByRole("heading", { level: 1, name: "Reset link missing" })).toBeVisible();
    await screen(page, "reset-password-missing-token");
    await page.getByRole("button", { name: "Request a new link" }).click();
    await expect(page.getByRole("dialog", { name: "Forgot your password?" })).toBeVisible();
    await page.keyboard.press("Escape");

    await page.goto("/reset-password?token=short");
    await expect(
      page.getByText("This reset link is invalid or has expired. Please request a new one."),
    ).toBeVisible();

    // A well-formed token the server does not know: the server's message.
    await page.goto(`/reset-password?token=${"x".repeat(43)}`);
    await page.getByLabel("New password", { exact: true }).fill("another-pass-1");
    await page.getByLabel("Confirm new password", { exact: true }).fill("another-pass-1");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(
      page.getByText("This reset link is invalid or has expired. Please request a new one."),
    ).toBeVisible();
    await page.getByRole("link", { name: "Back to sign in" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("'Reset via Email' on the profile mails a reset link", async ({ page, createLearner }) => {
    const learner = await createLearner();
    const seen = mailsTo(learner.email).length;
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto("/profile");
    const request = page.waitForRequest("**/api/auth/reset-password");
    await page.getByRole("button", { name: "Reset via Email" }).click();
    expect((await request).postDataJSON()).toEqual({ email: learner.email });
    await expectToast(page, "Password reset email sent");
    await expect(toastLocator(page)).toContainText(learner.email);
    await waitForMailLink(learner.email, RESET_LINK, { seen });

    // A failure has its own toast.
    await page.route("**/api/auth/reset-password", (route) =>
      route.fulfill({ status: 500, body: "" }),
    );
    await page.getByRole("button", { name: "Reset via Email" }).click();
    await expectToast(page, "Failed to send reset email", "Please try again later.");
  });
});
