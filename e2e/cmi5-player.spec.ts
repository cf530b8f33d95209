import type { APIRequestContext, FrameLocator, Page } from "@playwright/test";
import type { Course } from "../src/contract";
import { PACKAGE_FRAME_SANDBOX } from "../src/web/lib/package-frame";
import { dismissToast, expect, expectToast, signIn, test, uniqueEmail } from "./support/fixtures";
import { addPackageModule, CMI5 } from "./support/packages";
import { screensAtBothWidths } from "./support/screens";

/** A published course whose one module is ADL's cmi5 example `file`, through the API. */
async function cmi5Course(api: APIRequestContext, file: string, title: string): Promise<Course> {
  const created = await api.post("/api/courses", {
    data: {
      title,
      description: "Geology, as ADL's cmi5 examples teach it.",
      category: "Development",
      duration: 1,
      thumbnail: null,
      modules: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const course = (await created.json()) as Course;
  await addPackageModule(api, course.id, {
    kind: "cmi5",
    file: `${CMI5}/${file}`,
    title: "Introduction to Geology",
  });
  const published = await api.patch(`/api/courses/${course.id}/publish`);
  expect(published.status(), await published.text()).toBe(200);
  return (await published.json()) as Course;
}

const unit = (page: Page, title: string) =>
  page.getByTestId("cmi5-unit").filter({ has: page.getByText(title, { exact: true }) });

/** Opens the unit and waits until the AU in the frame has started its session. */
async function startUnit(page: Page, title: string): Promise<FrameLocator> {
  const launched = page.waitForResponse((r) => r.url().endsWith("/cmi5/launch"));
  await unit(page, title)
    .getByRole("button", { name: `Start ${title}` })
    .click();
  expect((await launched).status()).toBe(200);
  await expect(page.getByTestId("cmi5-frame")).toBeVisible();
  return page.frameLocator('[data-testid="cmi5-frame"]');
}

/**
 * In the example AU: once it has started (its first page shown), go to its quiz, fill in
 * the right answers and submit them. Its own buttons are pressed as events: at phone width
 * the portal's sticky header covers the frame's top, where the quiz's buttons are.
 */
async function passQuiz(frame: FrameLocator) {
  // Started: it read its bookmark and showed its first page (marked current in its menu).
  await expect(frame.locator(".navmenuitem.current")).toHaveCount(1);
  await frame.locator(".navmenuitem", { hasText: "Quiz" }).dispatchEvent("click");
  await frame.getByRole("button", { name: /Select correct answers/ }).dispatchEvent("click");
  await frame.getByRole("button", { name: "Submit Answers" }).dispatchEvent("click");
  await expect(frame.getByText("You achieved a passing score.")).toBeVisible();
}

test.describe("cmi5 modules (learner)", () => {
  test("the single-AU example completes the module and the course", async ({
    page,
    adminApi,
    createLearner,
    enroll,
  }) => {
    test.slow();
    const course = await cmi5Course(
      adminApi,
      "single_au_basic_responsive.zip",
      `Geology ${uniqueEmail("g").slice(2, 8)}`,
    );
    const learner = await createLearner({ name: "Gail Geologist" });
    await enroll(learner.id, course.id);
    await signIn(page, learner);
    await page.waitForURL("**/learner");
    await dismissToast(page);
    await page.goto(`/course/${course.id}`);
    const player = page.getByTestId("cmi5-player");
    await expect(player).toBeVisible();
    await expect(
      unit(page, "Introduction to Geology - Responsive Style").getByTestId("cmi5-unit-status"),
    ).toHaveText("Not started");
    // A cmi5 module completes when its content says so, never by the learner's own click.
    await expect(page.getByRole("button", { name: "Mark as Complete" })).toHaveCount(0);
    await screensAtBothWidths(page, "cmi5-player-units");

    const frame = await startUnit(page, "Introduction to Geology - Responsive Style");
    // The AU runs on the content origin, in a sandbox without top navigation.
    const src = await page.getByTestId("cmi5-frame").getAttribute("src");
    expect(new URL(src!).origin).not.toBe(new URL(page.url()).origin);
    await expect(page.getByTestId("cmi5-frame")).toHaveAttribute("sandbox", PACKAGE_FRAME_SANDBOX);
    expect(PACKAGE_FRAME_SANDBOX).not.toContain("allow-top-navigation");
    await expect(frame.locator("#content")).toContainText("Geology");
    await screensAtBothWidths(page, "cmi5-player-au-open");

    await passQuiz(frame);
    // The portal hears of it from the AU's statements; the course completes with the module.
    await expect(page.getByTestId("course-complete")).toBeVisible();
    await expect(
      unit(page, "Introduction to Geology - Responsive Style").getByTestId("cmi5-unit-status"),
    ).toHaveText("Done");
    await expect(page.getByTestId("cmi5-done")).toHaveText("1 of 1 done");

    // Exit in the AU: it terminates and returns to the LMS, which closes the unit.
    await frame.locator(".exit-button").first().dispatchEvent("click");
    await expect(page.getByTestId("cmi5-frame")).toHaveCount(0);
    await expect(player).toContainText("You have completed this module's units.");
    await screensAtBothWidths(page, "cmi5-player-complete");
  });

  test("the multi-AU example completes once every unit and the quiz are done", async ({
    page,
    adminApi,
    createLearner,
    enroll,
  }) => {
    test.slow();
    const course = await cmi5Course(
      adminApi,
      "multi_au_framed.zip",
      `Geology units ${uniqueEmail("m").slice(2, 8)}`,
    );
    const learner = await createLearner({ name: "Milo Mineral" });
    await enroll(learner.id, course.id);
    await signIn(page, learner);
    await page.waitForURL("**/learner");
    await dismissToast(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/course/${course.id}`);
    await expect(page.getByTestId("cmi5-unit")).toHaveCount(8);

    const lessons = [
      "Introduction to Geology",
      "Geological Materials",
      "Whole-Earth Structure",
      "Geological Time",
      "Dating Methods",
      "Geological Development of an Area",
      "Applied Geology",
    ];
    // Each lesson completes when it is opened (the example's "complete on launch").
    for (const [i, title] of lessons.entries()) {
      const frame = await startUnit(page, title);
      await expect(frame.locator("#content")).not.toBeEmpty();
      await expect(unit(page, title).getByTestId("cmi5-unit-status")).toHaveText("Done");
      await expect(page.getByTestId("cmi5-done")).toHaveText(`${i + 1} of 8 done`);
    }
    await expect(page.getByTestId("course-complete")).toHaveCount(0);
    await screensAtBothWidths(page, "cmi5-player-multi-progress");

    const quiz = await startUnit(page, "Quiz");
    await passQuiz(quiz);
    await expect(page.getByTestId("course-complete")).toBeVisible();
    await expect(page.getByTestId("cmi5-done")).toHaveText("8 of 8 done");
    await page.getByRole("button", { name: "Close unit" }).click();
    await screensAtBothWidths(page, "cmi5-player-multi-complete");
  });

  test("an administrator waives a learner's unit, and the module completes for the learner", async ({
    page,
    adminPage,
    adminApi,
    createLearner,
    enroll,
  }) => {
    test.slow();
    const course = await cmi5Course(
      adminApi,
      "single_au_basic_responsive.zip",
      `Waived geology ${uniqueEmail("w").slice(2, 8)}`,
    );
    const learner = await createLearner({ name: "Wes Waived" });
    await enroll(learner.id, course.id);
    await signIn(page, learner);
    await page.waitForURL("**/learner");
    await dismissToast(page);
    await page.goto(`/course/${course.id}`);
    const title = "Introduction to Geology - Responsive Style";
    const frame = await startUnit(page, title);
    await expect(frame.locator(".navmenuitem.current")).toHaveCount(1);

    // The administrator, on the module's learners page, waives the unit for the learner.
    await adminPage.goto(`/admin/courses/${course.id}/modules/${course.modules[0]!.id}/learners`);
    await adminPage.getByRole("button", { name: "Waive a unit for Wes Waived" }).first().click();
    const dialog = adminPage.getByRole("dialog", { name: "Waive a unit" });
    await dialog.getByLabel("Reason").selectOption("Tested Out");
    await screensAtBothWidths(adminPage, "cmi5-waive-dialog");
    await dialog.getByRole("button", { name: "Waive unit" }).click();
    await expectToast(
      adminPage,
      "Unit waived",
      "“Introduction to Geology - Responsive Style” counts for Wes Waived, and the module is complete.",
    );
    await expect(dialog).toBeHidden();

    // The learner's player hears of it while the unit is open.
    await expect(page.getByTestId("course-complete")).toBeVisible();
    await expect(unit(page, title).getByTestId("cmi5-unit-status")).toHaveText("Waived");
  });
});
