import { readFileSync } from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import {
  answerConfirm,
  dismissToast,
  expect,
  expectToast,
  fromAddress,
  type LearnerAccount,
  signIn,
  test,
  uniqueEmail,
} from "./support/fixtures";
import { addPackageModule, GOLF } from "./support/packages";
import { screen, screensAtBothWidths } from "./support/screens";

/**
 * The learner plays the SCORM module through the run time's API, as the player does: a
 * launch opens the attempt, and the SCO commits its data model.
 */
async function play(
  api: APIRequestContext,
  target: { courseId: string; moduleId: string },
  cmi: Record<string, unknown>,
) {
  const base = `/api/courses/${target.courseId}/modules/${target.moduleId}/package`;
  const launched = await api.post(`${base}/launch`);
  expect(launched.status(), await launched.text()).toBe(200);
  // The run time's answer names the item to open first.
  const launch = (await launched.json()) as { resume: { itemId: string } };
  const committed = await api.put(`${base}/items/${encodeURIComponent(launch.resume.itemId)}`, {
    data: { cmi, finish: true },
  });
  expect(committed.status(), await committed.text()).toBe(200);
}

test.describe("Package module attempts (admin)", () => {
  test("an administrator follows a SCORM module's learners, exports them and resets an attempt", async ({
    page,
    admin,
    adminApi,
    createCourse,
    createLearner,
    enroll,
    completeModules,
    playwright,
    baseURL,
  }, testInfo) => {
    test.slow();
    // A course whose learners finished its video, then given a SCORM module.
    const course = await createCourse({
      title: `Golf attempts ${uniqueEmail("c").slice(2, 10)}`,
      modules: 1,
      publish: true,
    });
    const ada = await createLearner({ name: "Ada Passer" });
    const ben = await createLearner({ name: "Ben Browser" });
    const cy = await createLearner({ name: "Cy Waiting" });
    for (const learner of [ada, ben, cy]) {
      await enroll(learner.id, course.id);
      await completeModules(learner, course, 1);
    }
    expect((await adminApi.patch(`/api/courses/${course.id}/unpublish`)).status()).toBe(200);
    const scorm = await addPackageModule(adminApi, course.id, {
      kind: "scorm",
      file: `${GOLF}/singlesco_scorm12.zip`,
      title: "Golf explained",
    });
    const target = { courseId: course.id, moduleId: scorm.id };
    const republished = await adminApi.patch(`/api/courses/${course.id}/publish`);
    expect(republished.status(), await republished.text()).toBe(200);

    // Ada passes with 85 %, Ben looks around; Cy has not launched it.
    const asLearner = async (learner: LearnerAccount) => {
      const api = await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: fromAddress(testInfo.testId, learner.email),
      });
      const login = await api.post("/api/auth/login", {
        data: { email: learner.email, password: learner.password },
      });
      expect(login.status(), await login.text()).toBe(200);
      return api;
    };
    const adaApi = await asLearner(ada);
    await play(adaApi, target, {
      core: {
        lesson_status: "passed",
        score: { raw: "85", min: "0", max: "100" },
        session_time: "00:04:10",
      },
    });
    const benApi = await asLearner(ben);
    await play(benApi, target, {
      core: { lesson_status: "incomplete", lesson_location: "page-2", session_time: "00:01:30" },
    });

    // From the module list to the module's learners.
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);
    await page.goto(`/admin/courses/${course.id}`);
    await page.getByRole("link", { name: "Learners and attempts of Golf explained" }).click();
    await expect(page).toHaveURL(
      new RegExp(`/admin/courses/${course.id}/modules/${scorm.id}/learners$`),
    );
    await expect(
      page.getByRole("heading", { level: 1, name: "Golf explained: learners" }),
    ).toBeVisible();
    const table = page.getByRole("table", { name: "Learners of Golf explained" });
    const rows = table.getByTestId("package-learner-row");
    await expect(rows).toHaveCount(3);
    const adaRow = rows.filter({ hasText: "Ada Passer" });
    await expect(adaRow).toContainText("Passed");
    await expect(adaRow).toContainText("Attempt 1");
    await expect(adaRow).toContainText("85%");
    await expect(adaRow).toContainText("4 min 10 s");
    await expect(adaRow).toContainText("Complete");
    await expect(rows.filter({ hasText: "Ben Browser" })).toContainText("In progress");
    const cyRow = rows.filter({ hasText: "Cy Waiting" });
    await expect(cyRow).toContainText("Not started");
    // Nothing to reset before a launch.
    await expect(cyRow.getByRole("button", { name: /Reset/ })).toHaveCount(0);
    await screensAtBothWidths(page, "admin-package-attempts");

    // Search narrows by name or email; the order turns around.
    const searchBox = page.getByRole("searchbox", { name: "Search learners by name or email" });
    await searchBox.fill(ben.email);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Ben Browser");
    await page.getByRole("button", { name: "Clear search" }).click();
    await page.getByLabel("Sort by").selectOption("-name");
    await expect(rows.first()).toContainText("Cy Waiting");
    await page.getByLabel("Sort by").selectOption("name");
    await expect(rows.first()).toContainText("Ada Passer");

    // The export holds the rows shown.
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      /^attempts-Golf-attempts-.*-Golf-explained-\d{4}-\d\d-\d\d\.csv$/,
    );
    const csv = readFileSync((await download.path())!, "utf8");
    const lines = csv
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Learner,Email,Status,Score (%),Reported Time (s),Seat Time (s),Attempts,Current Attempt,Module Completed,Module Completed At,Last Activity At",
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]!.split(",").slice(0, 9)).toEqual([
      "Ada Passer",
      ada.email,
      "Passed",
      "85",
      "250",
      expect.stringMatching(/^\d+$/),
      "1",
      "1",
      "Yes",
    ]);

    // Ada's attempt is reset, after a confirmation that says what stays.
    await adaRow.getByRole("button", { name: "Reset Ada Passer's attempt" }).click();
    const text = await answerConfirm(page, "confirm");
    expect(text).toContain("Ada Passer's attempt 1 at “Golf explained” ends");
    await expectToast(
      page,
      "Attempt reset",
      "Ada Passer's attempt was reset. Their next launch starts attempt 2.",
    );
    await expect(adaRow).toContainText("Not started");
    // The module stays complete: credit earned is never taken back.
    await expect(adaRow).toContainText("Complete");
    await expect(adaRow.getByRole("button", { name: /Reset/ })).toHaveCount(0);
    await dismissToast(page);

    // At a phone's width, each learner is a card and the reset works from the keyboard.
    await page.setViewportSize({ width: 390, height: 844 });
    const cards = page.getByTestId("package-learner-card");
    await expect(cards).toHaveCount(3);
    const benReset = cards
      .filter({ hasText: "Ben Browser" })
      .getByRole("button", { name: "Reset Ben Browser's attempt" });
    await benReset.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await screen(page, "admin-package-attempts-reset-confirm-390");
    await page.keyboard.press("Tab");
    await expect(
      page.getByRole("alertdialog").getByRole("button", { name: "Reset attempt" }),
    ).toBeFocused();
    await page.keyboard.press("Enter");
    await expectToast(page, "Attempt reset");
    await expect(cards.filter({ hasText: "Ben Browser" })).toContainText("Not started");
    await dismissToast(page);
    await screensAtBothWidths(page, "admin-package-attempts-after-reset");

    // Ada's next launch opens attempt 2.
    await play(adaApi, target, { core: { lesson_status: "incomplete" } });
    await page.reload();
    await expect(rows.filter({ hasText: "Ada Passer" })).toContainText("Attempt 2");

    // Her record on the Learners page shows the package module beside the video's watching.
    await page.goto("/admin/learners");
    await page.getByRole("searchbox", { name: "Search learners by name or email" }).fill(ada.email);
    const card = page.getByRole("article", { name: "Ada Passer" });
    await expect(page.getByRole("article")).toHaveCount(1);
    await card.getByText("Watching per module").click();
    const record = card.getByTestId("learner-package-progress");
    await expect(record).toContainText("Golf explained");
    await expect(record).toContainText("In progress (attempt 2)");
    await screen(page, "admin-learner-package-progress");
    await adaApi.dispose();
    await benApi.dispose();
  });
});
