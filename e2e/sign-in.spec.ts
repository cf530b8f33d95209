import {
  dismissToast,
  expect,
  expectToast,
  signIn,
  test,
  toastLocator,
  uniqueEmail,
} from "./support/fixtures";
import { holdRequests } from "./support/held-requests";
import { screen, screensAtBothWidths } from "./support/screens";

test.describe("Sign-in screen", () => {
  test("shows every control and validates required fields", async ({ page }) => {
    // A signed-out visitor's page asks for no session it cannot have: no 401, no console error.
    const consoleErrors: string[] = [];
    const refusals: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("response", (response) => {
      if (response.status() >= 400) refusals.push(`${response.status()} ${response.url()}`);
    });
    await page.goto("/");
    await expect(page).toHaveTitle("Sign in · Credo");
    const email = page.getByLabel("Email address");
    await expect(email).toHaveAttribute("type", "email");
    await expect(email).toHaveAttribute("required", "");
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("required", "");
    await expect(page.getByRole("checkbox", { name: "Remember me" })).not.toBeChecked();
    await expect(page.getByRole("heading", { name: "First time logging in?" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Set Your Password" })).toBeVisible();

    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Email is required")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();
    await screen(page, "sign-in-validation");

    // Too long an address: the limit in words, never a validator's "Too big: …<=254".
    await page.getByLabel("Email address").fill(`${"a".repeat(250)}@example.com`);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Email must be at most 254 characters")).toBeVisible();
    await expect(page.getByText(/Too big|expected string|<=/)).toHaveCount(0);
    await screensAtBothWidths(page, "sign-in-email-too-long");
    expect(refusals).toEqual([]);
    expect(consoleErrors).toEqual([]);

    // The show/hide toggle reveals the password.
    const password = page.getByLabel("Password", { exact: true });
    await password.fill("secret-value");
    await expect(password).toHaveAttribute("type", "password");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(password).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(password).toHaveAttribute("type", "password");
  });

  test("works from the keyboard, with visible focus", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
    await page.keyboard.press("Tab");
    const email = page.getByLabel("Email address");
    await expect(email).toBeFocused();
    const ring = await email.evaluate((el) => getComputedStyle(el).boxShadow);
    expect(ring).not.toBe("none");

    const trigger = page.getByRole("button", { name: "Set Your Password" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Email address")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    const buttonRing = await trigger.evaluate((el) => getComputedStyle(el).boxShadow);
    expect(buttonRing).not.toBe("none");
  });

  test("a button focused before its dialog's code arrives keeps focus and opens on Enter", async ({
    page,
  }) => {
    // Hold the setup dialog's chunk so the stand-in button is what the keyboard reaches first.
    const { release } = await holdRequests(page, /\/assets\/setup-password-dialog-[^/]*\.js$/);
    await page.goto("/");
    const trigger = page.getByRole("button", { name: "Set Your Password" });
    await trigger.focus();
    await expect(trigger).toBeFocused();
    await expect(trigger).not.toHaveAttribute("aria-haspopup", "dialog");

    release();
    // The dialog's own trigger replaces the stand-in and takes its focus over.
    await expect(trigger).toHaveAttribute("aria-haspopup", "dialog");
    await expect(trigger).toBeFocused();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(trigger).toBeFocused();
  });

  test("'Forgot password?' opens a help dialog with the typed email, sent without touching the sign-in form", async ({
    page,
  }) => {
    const email = uniqueEmail("forgetful");
    await page.goto("/");
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Forgot password?" }).click();
    const dialog = page.getByRole("dialog", { name: "Forgot your password?" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Email address")).toHaveValue(email);
    await screen(page, "forgot-password-dialog");

    // Sending the dialog's form leaves the sign-in form behind it alone.
    await dialog.getByRole("button", { name: "Send reset link" }).click();
    const sent = page.getByRole("dialog", { name: "Check your inbox" });
    await expect(sent).toBeVisible();
    await expectToast(page, "Password reset email sent");
    await expect(page.getByText("Email is required")).toHaveCount(0);
    await expect(page.getByText("Password is required")).toHaveCount(0);

    // One Escape closes the dialog, even with the toast showing above it.
    await page.keyboard.press("Escape");
    await expect(sent).toBeHidden();
    await expect(toastLocator(page)).toBeVisible();
    await expect(page.getByText("Email is required")).toHaveCount(0);
    await screen(page, "forgot-password-sent-sign-in-untouched");
  });

  test("a failed sign-in shows the server's reason and points to Set Your Password", async ({
    page,
    createLearner,
  }) => {
    // A learner the administrator registered, who has not set a password yet.
    const learner = await createLearner({ withPassword: false });
    const hint = page.getByTestId("sign-in-first-time-hint");
    await page.goto("/");
    await expect(hint).toHaveCount(0);
    await signIn(page, { email: learner.email, password: "a-guess-1" });
    await expectToast(page, "Login failed", "Invalid email or password.");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Sign In" })).toBeEnabled();
    await expect(hint).toHaveText(
      "New here? If an administrator registered you, use Set Your Password first.",
    );
    await screen(page, "sign-in-failed");
    await page.setViewportSize({ width: 390, height: 844 });
    await screen(page, "sign-in-failed-390");
    await page.setViewportSize({ width: 1280, height: 800 });

    // The hint's button opens the setup dialog with the email already typed.
    await hint.getByRole("button", { name: "Set Your Password" }).click();
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Email address")).toHaveValue(learner.email);
    await expect(dialog.getByLabel("Email address")).not.toHaveAttribute("readonly", "");
    await dialog.getByRole("button", { name: "Verify" }).click();
    await expect(dialog.getByText("✓ Email verified")).toBeVisible();
  });

  test("a learner signs in with Remember me and lands on /learner", async ({
    page,
    createLearner,
  }) => {
    // A name that opens with a title: the greeting calls the learner by name, with one full
    // stop. Its Han character is outside the web font: a fallback font draws it, never a box.
    const learner = await createLearner({ name: "Dr. Lee 李 Learner" });
    await page.goto("/");
    await page.getByLabel("Email address").fill(learner.email);
    await page.getByLabel("Password", { exact: true }).fill(learner.password);
    await page.getByRole("checkbox", { name: "Remember me" }).check();

    const loginRequest = page.waitForRequest("**/api/auth/login");
    await page.getByRole("button", { name: "Sign In" }).click();
    const body = (await loginRequest).postDataJSON();
    expect(body).toEqual({ email: learner.email, password: learner.password, rememberMe: true });

    await expect(page).toHaveURL(/\/learner$/);
    await expectToast(page, "Login successful", "Welcome back!");
    await expect(page.getByRole("heading", { level: 1, name: "My learning" })).toBeVisible();
    // No course yet: a first-visit welcome, not "pick up where you left off".
    await expect(
      page.getByText(
        "Welcome, Lee. Your courses will appear here once an administrator enrolls you.",
      ),
    ).toBeVisible();
    await expect(page.getByText("Dr..")).toHaveCount(0);
    const fallback = await page.evaluate(async () =>
      (await document.fonts.load("16px 'Credo Han'", "李")).map((face) => face.status),
    );
    expect(fallback).toEqual(["loaded"]);
    await dismissToast(page);
    await screensAtBothWidths(page, "learner-dashboard");

    // The transcript speaks to the learner, too.
    await page.getByRole("link", { name: "Transcript" }).click();
    await expect(page).toHaveURL(/\/learner\/transcript$/);
    await expect(
      page.getByText(
        "Your courses will appear here once an administrator enrolls you, each with its dates, hours, credit and certificate.",
      ),
    ).toBeVisible();
    await expect(page.getByText("once the learner is enrolled")).toHaveCount(0);
    await screen(page, "learner-transcript-empty");

    // Signed in already: the sign-in screen sends the learner to their area.
    await page.goto("/");
    await expect(page).toHaveURL(/\/learner$/);
  });

  test("an admin signs in and lands on /admin", async ({ page, admin }) => {
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/admin$/);
  });
});
