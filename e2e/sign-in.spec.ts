import { expect, expectToast, signIn, test } from "./support/fixtures";
import { screen } from "./support/screens";

test.describe("Sign-in screen", () => {
  test("shows every control and validates required fields", async ({ page }) => {
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
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/setup-password-dialog-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
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

  test("'Forgot password?' opens a help dialog", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    const dialog = page.getByRole("dialog", { name: "Forgot your password?" });
    await expect(dialog).toBeVisible();
    await screen(page, "forgot-password-dialog");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });

  test("a wrong password shows the server's reason", async ({ page, createLearner }) => {
    const learner = await createLearner();
    await signIn(page, { email: learner.email, password: "wrong-password" });
    await expectToast(page, "Login failed", "Invalid email or password.");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Sign In" })).toBeEnabled();
    await screen(page, "sign-in-failed");
  });

  test("a learner signs in with Remember me and lands on /learner", async ({
    page,
    createLearner,
  }) => {
    const learner = await createLearner();
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
    await screen(page, "learner-dashboard");

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
