import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { holdRequests } from "./support/held-requests";
import {
  createPublishedCourse,
  enroll,
  expectVideoPlays,
  learnerIdByEmail,
  type SeededCourse,
} from "./support/learning";
import { screen } from "./support/screens";

/** Full-page screenshots of scrolled pages would show the sticky header mid-page. */
async function screenFromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screen(page, name);
}

/** The module states in the player's sidebar, in order. */
async function moduleStates(page: Page) {
  return page.getByTestId("module-item").evaluateAll((items) => items.map((i) => i.dataset.state));
}

async function expectStats(
  page: Page,
  stats: { completed: string; average: string; level: string },
) {
  await expect(page.getByTestId("stat-completed")).toHaveText(stats.completed);
  await expect(page.getByTestId("stat-average")).toHaveText(stats.average);
  await expect(page.getByTestId("stat-level")).toHaveText(stats.level);
}

async function expectTabCounts(page: Page, counts: { continue: number; completed: number }) {
  const tabs = page.getByRole("tablist", { name: "Your courses" });
  await expect(tabs.getByRole("tab", { name: "My Courses" })).toBeVisible();
  await expect(tabs.getByRole("tab", { name: "Continue Learning" })).toHaveText(
    `Continue Learning ${counts.continue}`,
  );
  await expect(tabs.getByRole("tab", { name: /^Completed/ })).toHaveText(
    `Completed ${counts.completed}`,
  );
  await expect(tabs.getByRole("tab", { name: /^Certificates/ })).toHaveText(
    `Certificates ${counts.completed}`,
  );
}

function card(page: Page, course: SeededCourse): Locator {
  return page
    .getByTestId("course-card")
    .filter({ has: page.getByRole("heading", { name: course.title }) });
}

async function expectVideoFor(page: Page, course: SeededCourse, index: number) {
  const module = course.modules[index]!;
  await expect(page.getByRole("heading", { level: 2, name: module.title })).toBeVisible();
  const video = page.getByTestId("module-video");
  // SPEC: the address carries a cache-busting query of a timestamp and the module id.
  await expect(video).toHaveAttribute(
    "src",
    new RegExp(`^${module.videoUrl}\\?t=\\d{13}&module=${module.id}$`),
  );
}

async function markComplete(page: Page, course: SeededCourse, index: number, progress: number) {
  const request = page.waitForRequest("**/api/progress/update");
  await page.getByRole("button", { name: "Mark as Complete" }).click();
  expect((await request).postDataJSON()).toEqual({
    userId: expect.any(String),
    courseId: course.id,
    moduleId: course.modules[index]!.id,
    progress,
  });
  await expectToast(page, "Progress updated", "Your progress has been saved");
  await expect(page.getByTestId("course-progress")).toHaveText(`${progress}%`);
}

test.describe("Learner journey", () => {
  test("a learner completes a three-module course, level rises and the certificate downloads", async ({
    page,
    adminApi,
    createLearner,
  }) => {
    test.slow();
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Inclusive Design & Accessibility ${stamp}`,
      description:
        "Design interfaces everyone can use: colour, contrast, keyboard access and screen readers.",
      category: "Design",
      duration: 6,
      modules: [
        {
          title: "Why accessibility matters",
          duration: 4,
          description: "Who benefits from accessible design, and the standards that describe it.",
        },
        {
          title: "Colour, contrast and type",
          duration: 8,
          video: "test-fixtures/sample-video-2.mp4",
        },
        { title: "Keyboard and screen readers", duration: 6 },
      ],
    });
    const other = await createPublishedCourse(adminApi, {
      title: `SQL for Analysts ${stamp}`,
      description: "Query, join and aggregate data with confidence.",
      category: "Database",
      duration: 4,
      modules: [{ title: "Selecting rows", duration: 5 }],
    });
    const learner = await createLearner();
    const learnerId = await learnerIdByEmail(adminApi, learner.email);
    await enroll(adminApi, learnerId, other.id);
    await enroll(adminApi, learnerId, course.id);

    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    // A name that needs escaping in the certificate (and a non-ASCII letter for UTF-8).
    const studentName = "Léa O'Learner & <Co>";
    const renamed = await page.request.put("/api/auth/profile", {
      data: { name: studentName, phone: null },
    });
    expect(renamed.status(), await renamed.text()).toBe(200);
    await page.reload();

    // A fresh dashboard: nothing started.
    await expect(page.getByRole("heading", { level: 1, name: "My learning" })).toBeVisible();
    await expectTabCounts(page, { continue: 0, completed: 0 });
    await expectStats(page, { completed: "0 of 2", average: "0%", level: "1" });
    await expect(page.getByTestId("course-card")).toHaveCount(2);
    await expect(card(page, course).getByText("Design", { exact: true })).toBeVisible();
    await expect(card(page, course).locator("img")).toHaveAttribute("src", course.thumbnail!);
    await expect(card(page, course).getByText("0%")).toBeVisible();
    const recent = page.getByRole("region", { name: "Recent Activity" });
    await expect(recent.getByRole("link")).toHaveCount(2);
    await expect(recent.getByRole("link").first()).toContainText(course.title);
    // The thumbnail really loads for the learner.
    await expect
      .poll(() =>
        card(page, course)
          .locator("img")
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    await dismissToast(page);
    await screen(page, "learner-dashboard-new");

    // Empty states of the other tabs.
    await page.getByRole("tab", { name: "Continue Learning" }).click();
    await expect(page.getByText("Nothing in progress")).toBeVisible();
    await expect(page).toHaveURL(/\?tab=continue$/);
    await screen(page, "learner-dashboard-empty-continue");
    await page.getByRole("tab", { name: /^Completed/ }).click();
    await expect(page.getByText("No completed courses yet")).toBeVisible();
    await page.getByRole("tab", { name: /^Certificates/ }).click();
    await expect(page.getByText("No certificates yet")).toBeVisible();
    await page.getByRole("tab", { name: "My Courses" }).click();

    // Into the player.
    await card(page, course)
      .getByRole("link", { name: `Start ${course.title}` })
      .click();
    // The player pins the module being watched in the address.
    await expect(page).toHaveURL(
      new RegExp(`/course/${course.id}\\?module=${course.modules[0]!.id}$`),
    );
    await expect(page.getByRole("heading", { level: 1, name: course.title })).toBeVisible();
    await expect(page).toHaveTitle(`${course.title} · Credo`);
    expect(await moduleStates(page)).toEqual(["available", "locked", "locked"]);
    const items = page.getByTestId("module-item");
    await expect(items.locator('[data-icon="locked"]')).toHaveCount(2);
    await expect(items.nth(1).getByRole("button")).toBeDisabled();
    await expect(items.nth(2).getByRole("button")).toBeDisabled();
    await expect(page.getByTestId("course-progress")).toHaveText("0%");
    await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
    await expect(
      page.getByText("Mark this module as complete to unlock the next one."),
    ).toBeVisible();

    await expectVideoFor(page, course, 0);
    const video = page.getByTestId("module-video");
    await expect(video).toHaveAttribute("controls", "");
    await expect(video).toHaveAttribute("controlslist", "nodownload");
    await expect(video).toHaveAttribute("disablepictureinpicture", "");
    await expect(video).toHaveAttribute("playsinline", "");
    const contextMenuBlocked = await video.evaluate((element) => {
      const event = new MouseEvent("contextmenu", { bubbles: true, cancelable: true });
      element.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(contextMenuBlocked, "the video's context menu is disabled").toBe(true);
    await expectVideoPlays(page);
    await screenFromTop(page, "course-player");

    // Module 1 done: module 2 unlocks at once, and focus waits on Next.
    await markComplete(page, course, 0, 33);
    expect(await moduleStates(page)).toEqual(["completed", "available", "locked"]);
    await expect(items.locator('[data-icon="locked"]')).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Mark as Complete" })).toHaveCount(0);
    const next = page.getByRole("button", { name: "Next" });
    await expect(next).toBeEnabled();
    await expect(next).toBeFocused();
    await page.keyboard.press("Enter");
    await expectVideoFor(page, course, 1);
    await expect(page).toHaveURL(new RegExp(`module=${course.modules[1]!.id}`));
    // Next is locked again (module 3 waits): the keyboard's place moves to the new module's
    // title rather than being dropped with the button.
    const moduleTitle = (index: number) =>
      page.getByRole("heading", { level: 2, name: course.modules[index]!.title });
    await expect(moduleTitle(1)).toBeFocused();
    // The second video is unlocked on the server too: it plays.
    await expectVideoPlays(page);
    await expect(page.getByRole("button", { name: "Previous" })).toBeEnabled();
    await dismissToast(page);
    await screenFromTop(page, "course-player-module-2");
    // Previous to the first module, where Previous is disabled: the same.
    await page.getByRole("button", { name: "Previous" }).focus();
    await page.keyboard.press("Enter");
    await expectVideoFor(page, course, 0);
    await expect(moduleTitle(0)).toBeFocused();

    // Back on the dashboard the course is in progress.
    await page.getByRole("link", { name: "My learning" }).click();
    await expect(page).toHaveURL(/\/learner$/);
    await expectTabCounts(page, { continue: 1, completed: 0 });
    await expectStats(page, { completed: "0 of 2", average: "17%", level: "1" });
    await expect(card(page, course).getByText("33%")).toBeVisible();
    await screen(page, "learner-dashboard-in-progress");

    // Continue resumes at module 2.
    await page.getByRole("tab", { name: "Continue Learning" }).click();
    await card(page, course)
      .getByRole("link", { name: `Continue ${course.title}` })
      .click();
    await expectVideoFor(page, course, 1);
    await markComplete(page, course, 1, 67);
    expect(await moduleStates(page)).toEqual(["completed", "completed", "available"]);
    await expect(items.locator('[data-icon="locked"]')).toHaveCount(0);

    // A completed module can be revisited from the sidebar; the locks stay open.
    await items.nth(0).getByRole("button").click();
    await expectVideoFor(page, course, 0);
    await expect(page.getByRole("button", { name: "Mark as Complete" })).toHaveCount(0);
    await items.nth(2).getByRole("button").click();
    await expectVideoFor(page, course, 2);
    await expectVideoPlays(page);

    // The last module completes the course: the celebration with the certificate.
    await markComplete(page, course, 2, 100);
    expect(await moduleStates(page)).toEqual(["completed", "completed", "completed"]);
    const celebration = page.getByTestId("course-complete");
    await expect(celebration).toBeVisible();
    await expect(celebration).toBeFocused();
    await expect(celebration).toContainText("Course complete");
    await expect(page.getByTestId("course-progress-text")).toHaveText("3 of 3 modules completed");
    await dismissToast(page);
    await screenFromTop(page, "course-player-complete");

    const enrollments = (await (
      await adminApi.get(`/api/enrollments/user/${learnerId}`)
    ).json()) as {
      courseId: string;
      isCompleted: boolean;
      completedAt: string;
      progress: number;
    }[];
    const completedEnrollment = enrollments.find((e) => e.courseId === course.id)!;
    expect(completedEnrollment).toMatchObject({ isCompleted: true, progress: 100 });
    const completionDate = new Intl.DateTimeFormat("en-US", {
      dateStyle: "long",
      timeZone: "UTC",
    }).format(new Date(completedEnrollment.completedAt));

    const fileName = `Certificate-${course.title.replace(/\s+/g, "-")}.html`;
    const downloadPromise = page.waitForEvent("download");
    await celebration.getByRole("button", { name: /^Download HTML/ }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe(fileName);
    const html = readFileSync((await download.path())!, "utf8");
    expect(html).toContain("Léa O&#39;Learner &amp; &lt;Co&gt;");
    expect(html).not.toContain("<Co>");
    expect(html).toContain(`Inclusive Design &amp; Accessibility ${stamp}`);
    expect(html).toContain(completionDate);
    expect(html).toContain("6 hours");
    expect(html).toContain("Certificate of Completion");
    // Self-contained: the only address is the verification one, as text.
    expect(html).not.toMatch(/<script|<link|<img|(src|href)=/i);
    expect(html).toMatch(/<p class="url">http:\/\/[^<\s]+\/verify\/[0-9A-Z]{32}</);

    // The file itself: how it looks, and it prints on one landscape A4 and Letter page.
    const certificate = await page.context().newPage();
    await certificate.setContent(html);
    await expect(certificate.getByText(studentName)).toBeVisible();
    await screen(certificate, "certificate");
    for (const format of ["A4", "Letter"] as const) {
      const pdf = await certificate.pdf({ format, landscape: true, printBackground: true });
      const pages = pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g) ?? [];
      expect(pages, `${format} pages`).toHaveLength(1);
    }
    await certificate.close();

    // The dashboard: completed, a certificate, and Level 3 (average 50%).
    await page.getByRole("link", { name: "My learning" }).click();
    await expectTabCounts(page, { continue: 0, completed: 1 });
    await expectStats(page, { completed: "1 of 2", average: "50%", level: "3" });
    await expect(card(page, course).getByText("Completed", { exact: true }).first()).toBeVisible();
    await expect(
      card(page, course).getByRole("link", { name: `Review ${course.title}` }),
    ).toBeVisible();
    const shortDate = new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "numeric",
      timeZone: "UTC",
    }).format(new Date(completedEnrollment.completedAt));
    await expect(recent.getByRole("link").first()).toContainText(`Completed ${shortDate}`);
    await screen(page, "learner-dashboard-completed");

    await page.getByRole("tab", { name: /^Completed/ }).click();
    await expect(page.getByTestId("course-card")).toHaveCount(1);
    await page.getByRole("tab", { name: /^Certificates/ }).click();
    const certificates = page.getByTestId("certificate-item");
    await expect(certificates).toHaveCount(1);
    await expect(certificates).toContainText(course.title);
    await expect(certificates).toContainText(completionDate);
    await screen(page, "learner-dashboard-certificates");
    const again = page.waitForEvent("download");
    await certificates
      .getByRole("button", { name: `Download HTML certificate for ${course.title}` })
      .click();
    expect((await again).suggestedFilename()).toBe(fileName);

    // Review opens the finished course at its first module with nothing left to mark.
    await page.getByRole("tab", { name: /^Completed/ }).click();
    await card(page, course)
      .getByRole("link", { name: `Review ${course.title}` })
      .click();
    await expectVideoFor(page, course, 0);
    await expect(page.getByRole("button", { name: "Mark as Complete" })).toHaveCount(0);
    await expect(page.getByTestId("course-complete")).toBeVisible();
  });

  test("a course the learner is not enrolled in shows 'Course not found' with a way back", async ({
    page,
    adminApi,
    createLearner,
  }) => {
    const course = await createPublishedCourse(adminApi, {
      title: `Not For You ${Date.now().toString(36)}`,
      thumbnail: false,
      modules: [{ title: "Only module", duration: 3 }],
    });
    const learner = await createLearner();
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);

    // An empty dashboard: every tab explains itself.
    await expect(page.getByText("No courses yet")).toBeVisible();
    await expectStats(page, { completed: "0 of 0", average: "0%", level: "1" });
    await dismissToast(page);
    await screen(page, "learner-dashboard-empty");

    // Skeletons hold the layout while data loads.
    const held: { release: () => void }[] = [];
    for (const url of ["**/api/enrollments/user/**", "**/api/courses/**"]) {
      // The page may have moved on (and dropped the request) while it was held.
      held.push(await holdRequests(page, url, (route) => route.continue().catch(() => {})));
    }
    await page.reload();
    await expect(page.getByRole("status", { name: "Loading your courses" })).toBeVisible();
    await screen(page, "learner-dashboard-loading");
    await page.goto(`/course/${course.id}`);
    await expect(
      page.getByRole("status").filter({ hasText: "Loading course details..." }),
    ).toBeAttached();
    await screen(page, "course-player-loading");
    for (const { release } of held) release();
    await page.unrouteAll({ behavior: "ignoreErrors" });

    await expect(page.getByRole("heading", { level: 1, name: "Course not found" })).toBeVisible();
    await expect(page.getByTestId("module-video")).toHaveCount(0);
    await screen(page, "course-player-not-found");
    await page.getByRole("link", { name: "Back to my learning" }).click();
    await expect(page).toHaveURL(/\/learner$/);
    // The dashboard itself, not just its address: until its code has loaded, the router
    // keeps the player on screen, and going back to the course would find it still there.
    await expect(page.getByText("No courses yet")).toBeVisible();

    // A video of a course the learner is not enrolled in is refused by the server too.
    const video = await page.request.get(course.modules[0]!.videoUrl);
    expect(video.status()).toBe(404);

    // Enrolled meanwhile: the player opens it even though this tab's list predates it.
    await enroll(adminApi, await learnerIdByEmail(adminApi, learner.email), course.id);
    await page.evaluate((path) => {
      window.history.pushState({}, "", path);
      window.dispatchEvent(new PopStateEvent("popstate"));
    }, `/course/${course.id}`);
    await expect(page.getByRole("heading", { level: 1, name: course.title })).toBeVisible();
    await expectVideoFor(page, course, 0);
  });
});

test.describe("Learner screens on a phone (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("dashboard and player stack in one column, modules under the video", async ({
    page,
    adminApi,
    createLearner,
  }) => {
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Mobile App Basics ${stamp}`,
      category: "Mobile",
      duration: 3,
      modules: [
        { title: "Your first screen", duration: 5 },
        { title: "Navigation between screens", duration: 7 },
        { title: "Publishing your app", duration: 4 },
      ],
    });
    const learner = await createLearner();
    const learnerId = await learnerIdByEmail(adminApi, learner.email);
    await enroll(adminApi, learnerId, course.id);
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);

    // One module done through the API, as the learner.
    const done = await page.request.post("/api/progress/update", {
      data: {
        userId: learnerId,
        courseId: course.id,
        moduleId: course.modules[0]!.id,
        progress: 33,
      },
    });
    expect(done.status(), await done.text()).toBe(200);
    await page.reload();
    await expectStats(page, { completed: "0 of 1", average: "33%", level: "2" });
    const noOverflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await noOverflow(), "no horizontal scrolling").toBe(true);
    await dismissToast(page);
    await screen(page, "mobile-learner-dashboard");

    await card(page, course)
      .getByRole("link", { name: `Continue ${course.title}` })
      .click();
    await expectVideoFor(page, course, 1);
    const videoBox = await page.getByTestId("module-video").boundingBox();
    const listBox = await page.getByRole("navigation", { name: "Course modules" }).boundingBox();
    expect(listBox!.y, "the module list sits under the video").toBeGreaterThan(
      videoBox!.y + videoBox!.height,
    );
    expect(await noOverflow(), "no horizontal scrolling").toBe(true);
    await expectVideoPlays(page);
    await screenFromTop(page, "mobile-course-player");

    // The list collapses and expands.
    const toggle = page.getByRole("button", { name: "Hide modules" });
    await toggle.click();
    await expect(page.getByTestId("module-item").first()).toBeHidden();
    await page.getByRole("button", { name: "Show modules" }).click();
    await expect(page.getByTestId("module-item").first()).toBeVisible();

    await markComplete(page, course, 1, 67);
    expect(await moduleStates(page)).toEqual(["completed", "completed", "available"]);
  });
});
