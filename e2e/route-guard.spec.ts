import type { Page } from "@playwright/test";
import { dismissToast, expect, signIn, test } from "./support/fixtures";
import { holdRequests } from "./support/held-requests";
import { screen, screensAtBothWidths } from "./support/screens";

/**
 * Checks that the address is `url` and the main area shows the loading state and no page;
 * returns the main area.
 */
async function expectLoadingAt(page: Page, url: RegExp) {
  await expect(page).toHaveURL(url);
  const main = page.getByRole("main");
  await expect(main.getByRole("status").getByText("Loading...", { exact: true })).toBeVisible();
  await expect(main.getByRole("heading", { level: 1 })).toHaveCount(0);
  return main;
}

test.describe("Route guard, pages loading and 404", () => {
  test("nobody signed in: every protected route goes to /", async ({ page }) => {
    for (const path of ["/admin", "/admin/courses", "/admin/learners", "/learner", "/profile"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
    }
  });

  test("a learner visiting /admin is sent away from the admin area", async ({
    page,
    createLearner,
  }) => {
    const learner = await createLearner();
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);

    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.goto("/admin/reports");
    // The guard sends the learner to /, which forwards a signed-in learner to /learner.
    await expect(page).toHaveURL(/\/learner$/);
    await expect(page.getByRole("navigation", { name: "Admin" })).toHaveCount(0);
    expect(visited).toContain("/");

    await page.goto("/course/any-course");
    await expect(page).toHaveURL(/\/course\/any-course$/);
    // Not enrolled (no such course): the player says so.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Course not found");
  });

  test("an admin visiting /learner is sent to /admin", async ({ page, admin }) => {
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto("/learner");
    await expect(page).toHaveURL(/\/admin$/);
  });

  test("a page whose code is still on its way shows the loading state, not the page left behind; a link pointed at fetches it early", async ({
    page,
    admin,
  }) => {
    // The Learners page's code is held back until the checks below have run.
    const { release } = await holdRequests(page, /\/assets\/admin-learners-[\w-]+\.js$/);
    await signIn(page, admin);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await dismissToast(page);

    const sections = page.getByRole("navigation", { name: "Admin" });
    await sections.getByRole("link", { name: "Learners" }).click();
    const main = await expectLoadingAt(page, /\/admin\/learners$/);
    // Nothing of the dashboard is left to click (its own Add Learner dialog among it).
    await expect(main.getByRole("button", { name: "Add Learner" })).toHaveCount(0);
    await expect(sections).toBeVisible();
    await screensAtBothWidths(page, "admin-page-loading");

    release();
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Learners");
    await expect(main.getByRole("button", { name: "Add Learner" }).first()).toBeVisible();

    // Pointing at a section's link fetches its code before any click.
    const reportsCode = page.waitForRequest(/\/assets\/admin-reports-[\w-]+\.js$/);
    await sections.getByRole("link", { name: "Reports" }).hover();
    await reportsCode;
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Learners");
  });

  test("the learner's shell shows the loading state for a page on its way, and fetches the course player while idle", async ({
    page,
    createLearner,
  }) => {
    // The Transcript page's code is held back until the checks below have run.
    const { release } = await holdRequests(page, /\/assets\/learner-transcript-[\w-]+\.js$/);
    const playerCode = page.waitForRequest(/\/assets\/course-player-[\w-]+\.js$/);
    const learner = await createLearner();
    await signIn(page, learner);
    await expect(page.getByRole("heading", { level: 1, name: "My learning" })).toBeVisible();
    // No course opened: the dashboard fetched the player's code by itself.
    await playerCode;
    await dismissToast(page);

    const account = page.getByRole("navigation", { name: "Account" });
    await account.getByRole("link", { name: "Transcript" }).click();
    const main = await expectLoadingAt(page, /\/learner\/transcript$/);
    await expect(account).toBeVisible();
    await screensAtBothWidths(page, "learner-page-loading");

    release();
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Transcript");
  });

  test("unknown paths show 'Page Not Found' with a link home", async ({ page }) => {
    await page.goto("/no/such/page");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await screen(page, "not-found");
    await page.getByRole("link", { name: "Back to home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
