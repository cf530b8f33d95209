import type { Course } from "../src/contract";
import { dismissToast, expect, signIn, test } from "./support/fixtures";
import { addPackageModule, CMI5, GOLF } from "./support/packages";
import { screensAtBothWidths } from "./support/screens";

/** The package's own pages are the provider's: the portal checks its frames, not them. */
const CONTENT = { exclude: ['[data-testid="package-frame"]', '[data-testid="cmi5-frame"]'] };

test.describe("A course of a video, a SCORM and a cmi5 module", () => {
  test("completes module by module, each by its own rule, and issues its certificate", async ({
    page,
    adminApi,
    createCourse,
    createLearner,
    enroll,
  }) => {
    test.slow();
    const course = await createCourse({ title: "Geology and golf", modules: 1 });
    await addPackageModule(adminApi, course.id, {
      kind: "scorm",
      file: `${GOLF}/RuntimeBasicCalls_SCORM20043rdEdition.zip`,
      title: "Golf explained",
    });
    await addPackageModule(adminApi, course.id, {
      kind: "cmi5",
      file: `${CMI5}/single_au_basic_responsive.zip`,
      title: "Introduction to Geology",
    });
    const published = await adminApi.patch(`/api/courses/${course.id}/publish`);
    expect(published.status(), await published.text()).toBe(200);
    expect(((await published.json()) as Course).modules.map((m) => m.kind)).toEqual([
      "video",
      "scorm",
      "cmi5",
    ]);
    const learner = await createLearner({ name: "Mia Mixed" });
    await enroll(learner.id, course.id);

    // The golf content asks "resume where you left off?" with confirm(): the learner says yes.
    page.on("dialog", (dialog) => void dialog.accept());
    await signIn(page, learner);
    await page.waitForURL("**/learner");
    await dismissToast(page);
    await page.goto(`/course/${course.id}`);
    const progress = page.getByTestId("course-progress");

    // The video module: 'Mark as Complete', as the spec has it.
    await page.getByRole("button", { name: "Mark as Complete" }).click();
    await expect(progress).toHaveText("33%");

    // The SCORM module: its last page completes it.
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Golf explained" })).toBeVisible();
    const sco = page.frameLocator('[data-testid="package-frame"]').frameLocator("#sco");
    await expect(
      sco.frameLocator("#contentFrame").getByRole("heading", { name: "Play of the game" }),
    ).toBeVisible();
    const next = sco.getByRole("button", { name: "Next ->" });
    while (await next.isEnabled()) await next.click();
    await expect(progress).toHaveText("67%");

    // The cmi5 module: its unit's quiz, passed, satisfies the course's moveOn.
    await page.getByRole("button", { name: "Next", exact: true }).click();
    const title = "Introduction to Geology - Responsive Style";
    await page.getByRole("button", { name: `Start ${title}` }).click();
    const au = page.frameLocator('[data-testid="cmi5-frame"]');
    await expect(au.locator(".navmenuitem.current")).toHaveCount(1);
    await au.locator(".navmenuitem", { hasText: "Quiz" }).dispatchEvent("click");
    await au.getByRole("button", { name: /Select correct answers/ }).dispatchEvent("click");
    await au.getByRole("button", { name: "Submit Answers" }).dispatchEvent("click");

    // Every module done: the course completes and its certificate is ready.
    await expect(page.getByTestId("course-complete")).toBeVisible();
    await expect(progress).toHaveText("100%");
    // Issued: its PDF is a link to the certificate (a button stands in until it is).
    await expect(
      page.getByTestId("course-complete").getByRole("link", { name: /Download PDF/ }),
    ).toBeVisible();
    await dismissToast(page);
    await screensAtBothWidths(page, "mixed-package-course-complete", CONTENT);
  });
});
