import type { Page } from "@playwright/test";
import { dismissToast, expect, signIn, test, uniqueEmail } from "./support/fixtures";
import { screen } from "./support/screens";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Nothing is wider than the phone (a mobile browser would zoom out to fit it). */
async function expectNoHorizontalScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "no horizontal scrolling").toBeLessThanOrEqual(390);
}

test.describe("Admin screens at 390 px", () => {
  test("dashboard, courses, course detail, learners and reports fit a phone", async ({
    page,
    admin,
    createCourse,
    createLearner,
    enroll,
    completeModules,
  }) => {
    test.slow(); // five screens, each checked with axe
    const stamp = uniqueEmail("m").slice(2, 10);
    const course = await createCourse({
      title: `Mobile-first CSS ${stamp}`,
      category: "Design",
      modules: 2,
      publish: true,
      thumbnail: true,
    });
    const learner = await createLearner({
      name: `Phone Person ${stamp}`,
      phone: "+44 20 7946 0958",
    });
    await enroll(learner.id, course.id);
    await completeModules(learner, course, 2);

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);
    await expect(page.getByRole("region", { name: "Overview" })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await screen(page, "mobile-admin-dashboard");

    // Create Course from the drawer menu.
    await page.getByRole("button", { name: "Open menu" }).click();
    await page
      .getByRole("dialog", { name: "Navigation" })
      .getByRole("button", { name: "Create Course" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Create Course" });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator("input.uppy-Dashboard-input[type=file]").first()).toBeAttached();
    await expectNoHorizontalScroll(page);
    await screen(page, "mobile-create-course-dialog");
    await page.keyboard.press("Escape");

    await page.goto("/admin/courses");
    await expect(page.getByTestId("course-card").first()).toBeVisible();
    await expectNoHorizontalScroll(page);
    await screen(page, "mobile-admin-courses");

    await page.goto(`/admin/courses/${course.id}`);
    await expect(page.getByTestId("module-item")).toHaveCount(2);
    await expectNoHorizontalScroll(page);
    await screen(page, "mobile-admin-course-detail");

    await page.goto("/admin/learners");
    await page.getByRole("searchbox", { name: "Search learners by name or email" }).fill(stamp);
    await expect(page.getByTestId("learner-card")).toHaveCount(1);
    await expect(page.getByTestId("learner-card")).toContainText("100% complete");
    await expectNoHorizontalScroll(page);
    await screen(page, "mobile-admin-learners");

    await page.goto("/admin/reports");
    // The chart is drawn once its axis is: its bars depend on every test's courses (ten
    // courses at 0% draw none), the axis does not.
    await expect(
      page
        .getByTestId("completion-rate-chart")
        .locator(".recharts-cartesian-axis-tick-value", { hasText: "100%" }),
    ).toBeVisible();
    await expectNoHorizontalScroll(page);
    await screen(page, "mobile-admin-reports");
  });
});
