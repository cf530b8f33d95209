import type { AdminStats, Course, LearnerSummary } from "../src/contract";
import {
  answerConfirm,
  dismissToast,
  expect,
  expectToast,
  signIn,
  test,
  uniqueEmail,
} from "./support/fixtures";
import { screen } from "./support/screens";

test.describe("Admin dashboard", () => {
  test("stat cards, recent courses and learners, and the cards lead to their pages", {
    tag: "@whole-portal",
  }, async ({ page, admin, adminApi, createCourse, createLearner }) => {
    const stamp = uniqueEmail("d").slice(2, 10);
    await createCourse({
      title: `Responsive Web Design ${stamp}`,
      category: "Design",
      duration: 4,
      modules: 2,
      publish: true,
      thumbnail: true,
    });
    await createCourse({ title: `PostgreSQL Indexing ${stamp}`, category: "Database", modules: 1 });
    const newest = await createCourse({
      title: `React Native Basics ${stamp}`,
      category: "Mobile",
      modules: 1,
      publish: true,
    });
    const restricted = await createLearner({ name: `Rita Restricted ${stamp}` });
    await adminApi.patch(`/api/users/learners/${restricted.id}/restrict`);
    await createLearner({ name: `Nora Newest ${stamp}`, phone: "+1 555 0199" });

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

    // The four cards show the server's figures.
    const stats = (await (await adminApi.get("/api/admin/stats")).json()) as AdminStats;
    const overview = page.getByRole("region", { name: "Overview" });
    await expect(overview.getByRole("link", { name: /Total Courses/ })).toContainText(
      String(stats.totalCourses),
    );
    await expect(overview.getByRole("link", { name: /Active Learners/ })).toContainText(
      String(stats.activeLearners),
    );
    await expect(overview.getByRole("link", { name: /Completions/ })).toContainText(
      String(stats.completions),
    );
    await expect(overview.getByRole("link", { name: /Avg\. Progress/ })).toContainText(
      `${stats.avgProgress}%`,
    );

    // Recent Courses: the first 3 of the list, newest first.
    const courses = (await (await adminApi.get("/api/courses")).json()) as Course[];
    const recentCourses = page.getByRole("list", { name: "Recent Courses" }).getByRole("listitem");
    await expect(recentCourses).toHaveCount(3);
    await expect(recentCourses.first()).toContainText(newest.title);
    for (const [i, course] of courses.slice(0, 3).entries()) {
      await expect(recentCourses.nth(i)).toContainText(course.title);
    }
    await expect(recentCourses.first()).toContainText("Published");

    // Recent Learners: the newest 3, with status and joined date.
    const learners = (await (
      await adminApi.get("/api/users/learners?limit=3")
    ).json()) as LearnerSummary[];
    const recentLearners = page.getByTestId("recent-learner");
    expect(learners.length).toBeGreaterThanOrEqual(2);
    await expect(recentLearners).toHaveCount(learners.length);
    for (const [i, learner] of learners.entries()) {
      await expect(recentLearners.nth(i)).toContainText(learner.name);
    }
    await expect(recentLearners.first()).toContainText(`Nora Newest ${stamp}`);
    await expect(recentLearners.first()).toContainText("Active");
    await expect(recentLearners.nth(1)).toContainText("Restricted");
    await expect(recentLearners.first()).toContainText(/Joined \w+ \d{1,2}, \d{4}/);
    await screen(page, "admin-dashboard-overview");

    // Each card leads to its page.
    const destinations = [
      { card: /Total Courses/, url: /\/admin\/courses$/, heading: "Courses" },
      { card: /Active Learners/, url: /\/admin\/learners$/, heading: "Learners" },
      { card: /Completions/, url: /\/admin\/reports$/, heading: "Reports" },
      { card: /Avg\. Progress/, url: /\/admin\/reports$/, heading: "Reports" },
    ];
    for (const { card, url, heading } of destinations) {
      await overview.getByRole("link", { name: card }).click();
      await expect(page).toHaveURL(url);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      await page.goBack();
      await expect(page).toHaveURL(/\/admin$/);
    }

    // Edit goes to the course; delete asks first.
    await page.getByRole("link", { name: `Edit ${newest.title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/courses/${newest.id}$`));
    await page.goBack();
    await page.getByRole("button", { name: `Delete ${newest.title}` }).click();
    await answerConfirm(page, "confirm");
    await expectToast(page, "Course deleted successfully");
    await expect(recentCourses.filter({ hasText: newest.title })).toHaveCount(0);
    await expect(overview.getByRole("link", { name: /Total Courses/ })).toContainText(
      String(stats.totalCourses - 1),
    );

    // The sidebar's Create Course opens the dialog; so does the header button.
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("button", { name: "Create Course" })
      .click();
    await expect(page.getByRole("dialog", { name: "Create Course" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Create Course" })).toBeHidden();
    await page.getByRole("main").getByRole("button", { name: "Add Learner" }).click();
    await expect(page.getByRole("dialog", { name: "Add Learner" })).toBeVisible();
    await page.keyboard.press("Escape");
  });

  test("a new course from the dashboard opens its page, with keyboard only", async ({
    page,
    admin,
  }) => {
    const title = `Keyboard Course ${uniqueEmail("k").slice(2, 10)}`;
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);

    // The page header's button: on a portal with no course yet, Recent Courses offers another.
    await page.getByRole("main").getByRole("button", { name: "Create Course" }).first().focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Create Course" });
    await expect(dialog.getByLabel("Course title")).toBeFocused();
    await page.keyboard.type(title);
    await page.keyboard.press("Tab");
    await page.keyboard.type("Built without a mouse.");
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Category")).toBeFocused();
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect(dialog.getByLabel("Category")).toHaveText(/Database|Development/);
    // Focus returns to the select once its list has closed.
    await expect(dialog.getByLabel("Category")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Duration (hours)")).toBeFocused();
    await page.keyboard.type("3");
    await dialog.getByLabel("Duration (hours)").press("Enter");
    await expectToast(page, "Course created successfully");
    await expect(page).toHaveURL(/\/admin\/courses\/[^/]+$/);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  });
});
