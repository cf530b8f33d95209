import { dismissToast, expect, signIn, test } from "./support/fixtures";
import { screen } from "./support/screens";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.describe("Phone layout (390 px)", () => {
  test("sign-in screen", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Credo");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow, "no horizontal scrolling").toBe(false);
    await screen(page, "mobile-sign-in");

    await page.getByRole("button", { name: "Set Your Password" }).click();
    await expect(page.getByRole("dialog", { name: "Set Up Your Password" })).toBeVisible();
    await screen(page, "mobile-setup-dialog");
  });

  test("admin layout collapses to a top bar with a menu drawer", async ({ page, admin }) => {
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("navigation", { name: "Admin" })).toBeHidden();
    await dismissToast(page);
    await screen(page, "mobile-admin");

    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    await expect(drawer).toBeVisible();
    await screen(page, "mobile-admin-menu");
    await drawer.getByRole("link", { name: "Learners" }).click();
    await expect(page).toHaveURL(/\/admin\/learners$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learners");

    await page.goto("/profile");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow, "no horizontal scrolling").toBe(false);
    await screen(page, "mobile-profile");
  });

  test("learner header", async ({ page, createLearner }) => {
    const learner = await createLearner();
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await dismissToast(page);
    await screen(page, "mobile-learner");
  });
});
