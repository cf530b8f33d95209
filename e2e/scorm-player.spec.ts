import type { FrameLocator, Locator, Page } from "@playwright/test";
import type { Course, ScormCommitBody } from "../src/contract";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { screen, screensAtBothWidths } from "./support/screens";

/** The peers' packages, read where they are (outside content, never copied in). */
const GOLF = "../shared/peers/scorm-golf";
/** The package's own pages are the provider's: the portal checks its frame, not them. */
const CONTENT = { exclude: ['[data-testid="package-frame"]'] };

const uppyInput = (scope: Locator) =>
  scope.locator("input.uppy-Dashboard-input[type=file]").first();

/** The SCO, framed by the launcher page inside the player's frame. */
const sco = (page: Page): FrameLocator =>
  page.frameLocator('[data-testid="package-frame"]').frameLocator("#sco");

/** Waits until the SCO of the part `n` of the package's contents talks to its run time. */
async function running(page: Page, n: number) {
  const id = await page.getByTestId("package-item").nth(n).getAttribute("data-item-id");
  await expect(page.getByTestId("package-frame")).toHaveAttribute("data-running-item", id!);
}

/**
 * Waits for the next commit of a SCO's data model to be saved, or with `location`, for the
 * commit that saves that bookmark (cmi.location). Start waiting before what commits.
 */
const committed = (page: Page, location?: string) =>
  page.waitForResponse(
    (r) =>
      r.request().method() === "PUT" &&
      /\/package\/items\//.test(r.url()) &&
      r.ok() &&
      (location === undefined ||
        String((r.request().postDataJSON() as ScormCommitBody).cmi.location) === location),
  );

async function addPackageModule(page: Page, title: string, file: string) {
  await page.getByRole("button", { name: "Add Module" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add Module" });
  await dialog.getByLabel("Module title").fill(title);
  await dialog.getByLabel("Duration (minutes)").fill("15");
  await dialog.getByLabel("Content").selectOption("scorm");
  await uppyInput(dialog).setInputFiles(`${GOLF}/${file}`);
  await expectToast(page, "Package uploaded");
  await dialog.getByRole("button", { name: "Add Module" }).click();
  await expectToast(page, "Module added successfully");
  await expect(dialog).toBeHidden();
  await dismissToast(page);
}

test.describe("SCORM player", () => {
  test("plays SCORM 2004 and SCORM 1.2 golf packages, resumes them after a reload and completes the course", async ({
    browser,
    page,
    admin,
    adminApi,
    createCourse,
    createLearner,
    enroll,
  }) => {
    test.slow();
    // The administrator imports both packages as modules and publishes the course.
    const course = await createCourse({ title: "Golf, the SCORM way" });
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);
    await page.goto(`/admin/courses/${course.id}`);
    await addPackageModule(page, "Golf explained", "RuntimeBasicCalls_SCORM20043rdEdition.zip");
    await addPackageModule(page, "Golf in parts", "RuntimeMinimumCalls_SCORM12-mini.zip");
    const published = await adminApi.patch(`/api/courses/${course.id}/publish`);
    expect(published.status(), await published.text()).toBe(200);
    const modules = ((await published.json()) as Course).modules;
    const learner = await createLearner({ name: "Gale Golfer" });
    await enroll(learner.id, course.id);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const player = await context.newPage();
    // The golf content asks "resume where you left off?" with confirm(): the learner says yes.
    player.on("dialog", (dialog) => void dialog.accept());
    await signIn(player, learner);
    await expect(player).toHaveURL(/\/learner$/);
    await player.goto(`/course/${course.id}`);
    await expect(player.getByRole("heading", { level: 2, name: "Golf explained" })).toBeVisible();
    await expect(
      player.getByText("This module completes when you finish its content."),
    ).toBeVisible();
    await expect(player.getByRole("button", { name: "Mark as Complete" })).toHaveCount(0);

    // SCORM 2004, one SCO with its own pages: the learner pages on inside the content.
    const golf = sco(player);
    const page2004 = golf.frameLocator("#contentFrame");
    await expect(page2004.getByRole("heading", { name: "Play of the game" })).toBeVisible();
    await expect(player.getByTestId("package-status")).toContainText("In progress");
    // The content bookmarks its page without committing: the run time's automatic commit
    // saves it two seconds later, which a slow machine may pass before the heading shows.
    const bookmarked = committed(player, "3");
    for (let i = 0; i < 3; i += 1) await golf.getByRole("button", { name: "Next ->" }).click();
    await expect(page2004.getByRole("heading", { name: /Other Scoring/i })).toBeVisible();
    await bookmarked;
    await screensAtBothWidths(player, "scorm-player-2004", CONTENT);

    // A reload, on a phone, resumes at the saved page (cmi.location), after the content's
    // own question.
    await player.setViewportSize({ width: 390, height: 844 });
    await player.reload();
    await expect(page2004.getByRole("heading", { name: /Other Scoring/i })).toBeVisible();
    await screen(player, "scorm-player-2004-resumed-390", CONTENT);
    await player.setViewportSize({ width: 1280, height: 800 });
    for (let i = 3; i < 14; i += 1) await golf.getByRole("button", { name: "Next ->" }).click();
    await expect(golf.getByRole("button", { name: "Next ->" })).toBeDisabled();
    // The last page completes the SCO: the module completes as a video module's would.
    await expect(player.getByTestId("package-status")).toContainText("Completed");
    await expect(player.getByTestId("course-progress")).toHaveText("50%");
    const items = player.getByTestId("module-item");
    await expect(items.nth(0)).toHaveAttribute("data-state", "completed");
    await expect(items.nth(1)).toHaveAttribute("data-state", "available");

    // SCORM 1.2, nine SCOs with the package's own table of contents.
    await player.getByRole("button", { name: "Next" }).click();
    await expect(player.getByRole("heading", { level: 2, name: "Golf in parts" })).toBeVisible();
    const contents = player.getByRole("navigation", { name: "Module contents" });
    const parts = contents.getByTestId("package-item");
    await expect(parts).toHaveCount(9);
    await expect(parts.nth(0)).toHaveAttribute("aria-current", "step");
    await expect(sco(player).getByRole("heading", { name: "Play of the game" })).toBeVisible();
    // Each SCO finishes when the learner moves on once it loaded; the keyboard works the
    // contents too.
    await running(player, 0);
    for (let i = 1; i < 4; i += 1) {
      const saved = committed(player);
      await parts.nth(i).focus();
      await player.keyboard.press("Enter");
      await saved;
      await expect(parts.nth(i)).toHaveAttribute("aria-current", "step");
      await running(player, i);
    }
    await expect(parts.nth(0).locator("svg.text-emerald-600")).toBeVisible();
    await screensAtBothWidths(player, "scorm-player-12-contents", CONTENT);

    // A reload opens the part the learner was in.
    await player.reload();
    await expect(parts.nth(3)).toHaveAttribute("aria-current", "step");
    await expect(sco(player).getByRole("heading", { name: /Other Scoring/i })).toBeVisible();
    await running(player, 3);
    for (let i = 4; i < 9; i += 1) {
      const saved = committed(player);
      await parts.nth(i).click();
      await saved;
      await running(player, i);
    }
    // Leaving the last part finishes it too: every SCO is complete, and so is the course.
    const saved = committed(player);
    await parts.nth(0).click();
    await saved;
    await expect(player.getByTestId("package-status")).toContainText("Completed");
    await expect(player.getByTestId("course-progress")).toHaveText("100%");
    await expect(player.getByTestId("course-complete")).toBeVisible();
    await dismissToast(player);
    await player.evaluate(() => window.scrollTo(0, 0));
    await screen(player, "scorm-player-course-complete", CONTENT);
    expect(modules).toHaveLength(2);
    await context.close();
  });
});
