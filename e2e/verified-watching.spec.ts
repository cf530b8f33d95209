import type { APIRequestContext, Page } from "@playwright/test";
import {
  type Course,
  type CourseWatch,
  DEFAULT_ACTIVITY,
  formatWatchSeconds,
  type ModuleWatch,
} from "../src/contract";
import {
  expect,
  expectToast,
  FIXTURE_FILES,
  signIn,
  test,
  uniqueEmail,
  uploadFile,
} from "./support/fixtures";
import { offerCredit, singleCreditOffer } from "./support/learning";
import { screen, screensAtBothWidths } from "./support/screens";

/** Verified watching, seat time and resume, in the browser. */

const VERIFIED_MESSAGE = "Watch at least 75% of this video before marking it complete.";

/**
 * A published course whose modules play the 3-second sample video and state 1 minute (the
 * spec's smallest duration; a verified course accepts a real length within a minute of it).
 */
async function seedCourse(api: APIRequestContext, title: string, modules = 2): Promise<Course> {
  const created = await api.post("/api/courses", {
    data: {
      title,
      description: "Short clips, watched for credit.",
      category: "Design",
      duration: 1,
      thumbnail: await uploadFile(api, "thumbnail", FIXTURE_FILES.thumbnail),
      modules: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const course = (await created.json()) as Course;
  for (let i = 0; i < modules; i += 1) {
    const module = {
      id: `module_${Date.now() + i}`,
      title: `Clip ${i + 1}`,
      description: "A three-second clip.",
      duration: 1,
      videoUrl: await uploadFile(api, "video", FIXTURE_FILES.video2),
    };
    const added = await api.post(`/api/courses/${course.id}/modules`, { data: module });
    expect(added.status(), await added.text()).toBe(201);
  }
  const published = await api.patch(`/api/courses/${course.id}/publish`);
  expect(published.status(), await published.text()).toBe(200);
  return (await published.json()) as Course;
}

const video = (page: Page) => page.getByTestId("module-video");
const currentTime = (page: Page) =>
  video(page).evaluate((element) => (element as HTMLVideoElement).currentTime);

/**
 * Plays the video (muted, as autoplay rules require) at `rate` to its end, or until `until`
 * seconds and then pauses it inside the page at once, so a slow test machine does not
 * overshoot. Returns once the server has answered the heartbeat the stop sends.
 */
async function playUntil(page: Page, until: number | "end", rate = 1) {
  // The heartbeat the stop sends: at a pause, the one that reports played intervals; at the
  // end, the one whose position is the end.
  const beat = page.waitForResponse((r) => {
    if (!r.url().endsWith("/api/progress/heartbeat")) return false;
    const body = JSON.parse(r.request().postData() ?? "{}");
    return until === "end"
      ? body.position >= body.duration - 0.01
      : (body.intervals?.length ?? 0) > 0;
  });
  await video(page).evaluate(
    async (element, [stopAt, playbackRate]) => {
      const media = element as HTMLVideoElement;
      media.muted = true;
      media.playbackRate = playbackRate;
      const done = new Promise<void>((resolve) => {
        const onTime = () => {
          if (stopAt !== null && media.currentTime >= stopAt) {
            media.pause();
            resolve();
          }
        };
        media.addEventListener("timeupdate", onTime);
        media.addEventListener("ended", () => resolve(), { once: true });
      });
      await media.play();
      await done;
    },
    [until === "end" ? null : until, rate] as const,
  );
  expect((await beat).status()).toBe(200);
}

/** The learner's watching of the course's first module, as the server counts it. */
async function served(page: Page, courseId: string): Promise<ModuleWatch> {
  const response = await page.request.get(`/api/progress/watch/${courseId}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as CourseWatch).modules[0]!;
}

/** What the player says of a module's watching, given the server's figures. */
const statusOf = (watch: ModuleWatch) =>
  `${watch.watchedPercent}% watched${
    watch.canComplete
      ? " · Ready to complete"
      : ` · ${formatWatchSeconds(watch.remainingSeconds)} remaining`
  }`;

test.describe("Verified watching", () => {
  test("admin makes a course verified; the learner must watch before completing, and resumes", async ({
    page,
    adminApi,
    admin,
    createLearner,
    enroll,
  }) => {
    const course = await seedCourse(adminApi, `Safety briefing ${uniqueEmail("v").slice(2, 8)}`);
    const learner = await createLearner({ name: "Vera Viewer" });
    await enroll(learner.id, course.id);

    // The course offers credit (set in its Accreditation section, see credit-admin.spec.ts);
    // the administrator sets the completion rule in the course detail.
    await offerCredit(
      adminApi,
      course.id,
      singleCreditOffer({
        body: "State Board of Safety",
        providerNumber: "P-4471",
        name: "CME credits",
        amount: 1.5,
      }),
    );
    await signIn(page, admin);
    await page.waitForURL("**/admin");
    await page.goto(`/admin/courses/${course.id}`);
    const card = page.getByTestId("course-settings-card");
    await expect(card).toContainText("Manual");
    await expect(card).toContainText("Up to 1.5 CME credits");
    await card.getByRole("button", { name: "Edit settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Completion" });
    await dialog.getByRole("radio", { name: /Verified watching/ }).check();
    await dialog.getByLabel("Minimum watched (%)").fill("75");
    await screen(page, "watch-admin-settings-dialog-1280");
    await dialog.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Completion settings saved");
    await expect(dialog).toBeHidden();
    await expect(card).toContainText("Verified watching");
    await expect(card).toContainText("75%");
    await screensAtBothWidths(page, "watch-admin-course-settings");

    // The learner cannot complete before watching: the button is disabled, the server refuses.
    await page.context().clearCookies();
    await signIn(page, learner);
    await page.waitForURL("**/learner");
    await expect(page.getByTestId("course-credit")).toHaveText("Up to 1.5 CME credits");
    await page.goto(`/course/${course.id}`);
    const complete = page.getByRole("button", { name: "Mark as Complete" });
    await expect(page.getByTestId("watch-status")).toHaveText("0% watched");
    await expect(complete).toBeDisabled();
    await expect(page.getByText(VERIFIED_MESSAGE)).toBeVisible();
    await expect(page.getByTestId("course-accreditation")).toContainText("State Board of Safety");
    const forced = await page.request.post("/api/progress/update", {
      data: { userId: learner.id, courseId: course.id, moduleId: course.modules[0]!.id },
    });
    expect(forced.status()).toBe(409);
    expect(await forced.json()).toEqual({
      message: VERIFIED_MESSAGE,
      code: "watching.not_watched_enough",
    });
    await screensAtBothWidths(page, "watch-player-before");

    // Watching half of it: the share shows, the button stays disabled.
    await playUntil(page, 1.5);
    await expect(page.getByTestId("watch-status")).toHaveText(
      /^[3-5]\d% watched · \d s remaining$/,
    );
    await expect(complete).toBeDisabled();
    const stoppedAt = await currentTime(page);

    // Resume: a reload opens the module where the learner left off.
    await page.reload();
    await expect.poll(() => currentTime(page)).toBeGreaterThan(1.2);
    expect(Math.abs((await currentTime(page)) - stoppedAt)).toBeLessThan(0.6);
    await expect(page.getByTestId("watch-status")).toHaveText(/^[3-5]\d% watched/);

    // Watching the rest unlocks 'Mark as Complete'. The resumed position may sit a few
    // tenths past where she stopped, a gap never watched: anything from the 75 % required.
    await playUntil(page, "end");
    await expect(page.getByTestId("watch-status")).toHaveText(
      /^(7[5-9]|[89]\d|100)% watched · Ready to complete$/,
    );
    await expect(complete).toBeEnabled();
    await screensAtBothWidths(page, "watch-player-ready");
    await complete.click();
    await expectToast(page, "Progress updated", "Your progress has been saved");
    await expect(page.getByTestId("course-progress")).toHaveText("50%");

    // The administrator sees the watched share and seat time per module.
    await page.context().clearCookies();
    await signIn(page, admin);
    await page.waitForURL("**/admin");
    await page.goto("/admin/learners");
    const learnerCard = page.locator("article").filter({ hasText: learner.email });
    await learnerCard.getByText("Watching per module").click();
    const row = learnerCard.getByRole("row", { name: /Clip 1/ });
    await expect(row).toContainText(/(9\d|100)%/);
    await expect(row).toContainText(/[3-5] s/);
    await screensAtBothWidths(page, "watch-admin-learner-watching");
  });

  test("on a phone the course opens with its video in view; fast playback earns the time it took, and 'Ready to complete' shows when the server accepts", async ({
    page,
    adminApi,
    createLearner,
    enroll,
  }) => {
    const course = await seedCourse(adminApi, `Fast clips ${uniqueEmail("f").slice(2, 8)}`, 1);
    await offerCredit(
      adminApi,
      course.id,
      singleCreditOffer({
        body: "State Board of Safety",
        providerNumber: "P-4471",
        name: "CME credits",
        amount: 1,
      }),
    );
    const settings = await adminApi.patch(`/api/courses/${course.id}/settings`, {
      data: { completionPolicy: "verified", minWatchPercent: 90 },
    });
    expect(settings.status(), await settings.text()).toBe(200);
    // A long activity page the learner reads to its foot before starting.
    const activity = await adminApi.put(`/api/courses/${course.id}/activity`, {
      data: {
        ...DEFAULT_ACTIVITY,
        objectives: [
          "Recognise the hazards of a shared workshop.",
          "Choose the protective equipment each task needs.",
          "Report an incident within the hour.",
        ],
        faculty: [
          { name: "Rosa Reyes", role: "Author", disclosure: "Nothing to disclose." },
          { name: "Tom Tran", role: "Reviewer", disclosure: "Nothing to disclose." },
        ],
        acknowledgementRequired: true,
      },
    });
    expect(activity.status(), await activity.text()).toBe(200);
    const learner = await createLearner({ name: "Fay Fastforward" });
    await enroll(learner.id, course.id);
    await signIn(page, learner);
    await page.waitForURL("**/learner");

    // On a phone, starting the course from the foot of the page shows the video, not the
    // middle of the player.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/courses/${course.id}/about`);
    await page.getByRole("button", { name: "I have read this information" }).click();
    const start = page.getByRole("link", { name: "Start the course" });
    await expect(start).toBeFocused();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await start.click();
    // Once the player has settled (its watching and its steps read), the whole video shows.
    await expect(page.getByTestId("watch-status")).toHaveText("0% watched");
    await expect(page.getByTestId("completion-checklist")).toBeVisible();
    await expect(video(page)).toBeInViewport({ ratio: 1 });
    await screen(page, "watch-player-started-390");
    await page.setViewportSize({ width: 1280, height: 800 });

    // The whole clip at 2x: the screen shows what the server counts, the time it took.
    const status = page.getByTestId("watch-status");
    const complete = page.getByRole("button", { name: "Mark as Complete" });
    await playUntil(page, "end", 2);
    const fast = await served(page, course.id);
    expect(fast.watchedPercent).toBeLessThan(90);
    expect(fast.canComplete).toBe(false);
    await expect(status).toHaveText(statusOf(fast));
    await expect(complete).toBeDisabled();
    const refused = await page.request.post("/api/progress/update", {
      data: { userId: learner.id, courseId: course.id, moduleId: course.modules[0]!.id },
    });
    expect(refused.status()).toBe(409);
    await screensAtBothWidths(page, "watch-player-fast-playback");

    // Again from the start at normal speed: the part that went by too fast counts now, and
    // the player is ready exactly when the server is.
    await video(page).evaluate((element) => {
      (element as HTMLVideoElement).currentTime = 0;
    });
    await playUntil(page, "end");
    const watched = await served(page, course.id);
    expect(watched.canComplete).toBe(true);
    await expect(status).toHaveText(statusOf(watched));
    await expect(status).toHaveText(/ · Ready to complete$/);
    await expect(complete).toBeEnabled();
    await complete.click();
    await expectToast(page, "Progress updated", "Your progress has been saved");
    await expect(page.getByTestId("course-progress")).toHaveText("100%");
  });

  test("a manual course still completes at once, and still resumes", async ({
    page,
    adminApi,
    createLearner,
    enroll,
  }) => {
    const course = await seedCourse(adminApi, `Open clips ${uniqueEmail("m").slice(2, 8)}`, 1);
    const learner = await createLearner({ name: "Manny Manual" });
    await enroll(learner.id, course.id);
    await signIn(page, learner);
    await page.waitForURL("**/learner");
    await page.goto(`/course/${course.id}`);
    await expect(video(page)).toBeVisible();
    await expect(page.getByTestId("watch-progress")).toHaveCount(0);
    await playUntil(page, 1.5);
    await page.reload();
    await expect.poll(() => currentTime(page)).toBeGreaterThan(1.2);
    const complete = page.getByRole("button", { name: "Mark as Complete" });
    await expect(complete).toBeEnabled();
    await complete.click();
    await expectToast(page, "Progress updated", "Your progress has been saved");
    await expect(page.getByTestId("course-progress")).toHaveText("100%");
  });
});
