import { expect, expectToast, signIn, test } from "./support/fixtures";

test.describe("Logout", () => {
  test("an admin logs out from the sidebar", async ({ page, admin }) => {
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, "Logged out successfully");
    await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();

    // The session is gone on the server too.
    const me = await page.request.get("/api/auth/me");
    expect(me.status()).toBe(401);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/$/);
  });

  test("a learner logs out from the header", async ({ page, createLearner }) => {
    const learner = await createLearner();
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, "Logged out successfully");
    await page.goto("/learner");
    await expect(page).toHaveURL(/\/$/);
  });
});
