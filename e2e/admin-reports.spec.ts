import { readFileSync } from "node:fs";
import type { Reports } from "../src/contract";
import { dismissToast, expect, signIn, test, uniqueEmail } from "./support/fixtures";
import { screen } from "./support/screens";

test.describe("Reports (admin)", () => {
  test("figures, tables and charts match the data, and the CSV downloads", {
    tag: "@whole-portal",
  }, async ({ page, admin, adminApi, createCourse, createLearner, enroll, completeModules }) => {
    const stamp = uniqueEmail("r").slice(2, 10);
    // Hand-computed data set:
    //   Design course (1 module):  Ada completes it, Ben has not started → 2 enrolled,
    //                              1 completed (50%), average progress (100 + 0) / 2 = 50%.
    //   Mobile course (2 modules): Ada completes 1 of 2 → 1 enrolled, 0%, progress 50%.
    const design = await createCourse({
      title: `Colour Theory ${stamp}`,
      category: "Design",
      modules: 1,
      publish: true,
      thumbnail: true,
    });
    const mobile = await createCourse({
      title: `Android Layouts ${stamp}`,
      category: "Mobile",
      modules: 2,
      publish: true,
    });
    const ada = await createLearner({ name: `Ada Reporter ${stamp}` });
    const ben = await createLearner({ name: `Ben Reporter ${stamp}` });
    await enroll(ada.id, design.id);
    await enroll(ben.id, design.id);
    await enroll(ada.id, mobile.id);
    await completeModules(ada, design, 1);
    await completeModules(ada, mobile, 1);

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Reports" })
      .click();
    await expect(page).toHaveURL(/\/admin\/reports$/);
    await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();

    // The summary equals the server's aggregates (other tests share this server).
    const report = (await (await adminApi.get("/api/admin/reports")).json()) as Reports;
    const summary = page.getByRole("region", { name: "Summary" });
    const cards = summary.getByTestId("stat-card");
    await expect(cards.nth(0)).toContainText(`Total Learners${report.summary.totalLearners}`);
    await expect(cards.nth(1)).toContainText(`Total Enrollments${report.summary.totalEnrollments}`);
    await expect(cards.nth(2)).toContainText(`Completion Rate${report.summary.completionRate}%`);
    await expect(cards.nth(3)).toContainText(`Avg. Progress${report.summary.avgProgress}%`);

    // Per course: the hand-computed figures.
    const courseTable = page.getByTestId("course-performance-table");
    const designRow = courseTable.getByRole("row").filter({ hasText: design.title });
    await expect(designRow.getByRole("cell")).toHaveText(["2", "1", "50%", "50%"]);
    const mobileRow = courseTable.getByRole("row").filter({ hasText: mobile.title });
    await expect(mobileRow.getByRole("cell")).toHaveText(["1", "0", "0%", "50%"]);
    // Sorted by enrollments, most first.
    const enrollmentCounts = (
      await courseTable.locator("tbody tr td:first-of-type").allTextContents()
    ).map(Number);
    expect(enrollmentCounts).toEqual([...enrollmentCounts].sort((a, b) => b - a));

    // Per category: the rows agree with the server.
    const categoryTable = page.getByTestId("category-performance-table");
    for (const category of report.categories) {
      const row = categoryTable.getByRole("row").filter({ hasText: category.category });
      await expect(row.getByRole("cell")).toHaveText([
        String(category.courses),
        String(category.enrollments),
        `${category.completionRate}%`,
        `${category.avgProgress}%`,
      ]);
    }

    // Charts: one bar per course (top 10) and one per category.
    const rateChart = page.getByTestId("completion-rate-chart");
    await expect(rateChart.locator(".recharts-yAxis .recharts-cartesian-axis-tick")).toHaveCount(
      Math.min(10, report.courses.length),
    );
    // Bars with a value are drawn; a 0% course has only its track.
    await expect(rateChart.locator(".recharts-bar-rectangle path")).toHaveCount(
      report.courses.slice(0, 10).filter((c) => c.completionRate > 0).length,
    );
    await expect(rateChart).toContainText("50%");
    const categoryChart = page.getByTestId("category-enrollments-chart");
    await expect(
      categoryChart.locator(".recharts-xAxis .recharts-cartesian-axis-tick"),
    ).toHaveCount(report.categories.length);
    await expect(categoryChart.locator(".recharts-bar-rectangle path")).toHaveCount(
      report.categories.filter((c) => c.enrollments > 0).length,
    );
    await expect(categoryChart).toContainText("Design");

    // Recent completions, newest first: Ada's Design completion is on the list.
    const completions = page.getByTestId("recent-completions").getByRole("listitem");
    await expect(completions.first()).toContainText(
      `Ada Reporter ${stamp} completed ${design.title}`,
    );
    const times = await page
      .getByTestId("recent-completions")
      .locator("time")
      .evaluateAll((els) => els.map((el) => Date.parse(el.getAttribute("datetime") ?? "")));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times.length).toBeLessThanOrEqual(10);

    await screen(page, "admin-reports");

    // At 1280 px every column shows; on a phone the tables say that more lies sideways.
    const courseRegion = page.getByRole("region", { name: "Course performance", exact: true });
    await expect(courseRegion).not.toHaveAttribute("data-overflowing");
    await expect(page.getByTestId("scroll-hint")).toHaveCount(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(courseRegion).toHaveAttribute("data-overflowing", "sideways");
    await expect(page.getByTestId("scroll-hint").first()).toHaveText(
      "Scroll sideways for more columns →",
    );
    await expect(courseRegion.locator("xpath=..").getByTestId("scroll-shadow-right")).toHaveCount(
      1,
    );
    // The region takes keyboard focus and scrolls; the shadow moves to the edge left behind.
    await courseRegion.focus();
    await expect(courseRegion).toBeFocused();
    await courseRegion.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect(courseRegion.locator("xpath=..").getByTestId("scroll-shadow-left")).toHaveCount(1);
    await expect(courseRegion.locator("xpath=..").getByTestId("scroll-shadow-right")).toHaveCount(
      0,
    );
    await courseRegion.evaluate((el) => el.scrollTo({ left: 0 }));
    await page.evaluate(() => window.scrollTo(0, 0));
    await screen(page, "admin-reports-390");
    await page.setViewportSize({ width: 1280, height: 800 });

    // Export Report downloads the CSV with every section.
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export Report" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/^report-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, "utf8");
    expect(csv).toContain("Summary");
    expect(csv).toContain("Course Performance");
    expect(csv).toContain("Category Performance");
    expect(csv).toContain("Recent Completions");
    expect(csv).toContain(`${design.title},Design,2,1,50,50`);
    expect(csv).toContain(`${mobile.title},Mobile,1,0,0,50`);
    expect(csv).toContain(`Ada Reporter ${stamp},${ada.email},${design.title},`);
  });
});
