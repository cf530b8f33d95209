import type { Locator, Page } from "@playwright/test";
import {
  dismissToast,
  expect,
  expectToast,
  fromAddress,
  signIn,
  test,
  uniqueEmail,
} from "./support/fixtures";
import { screen } from "./support/screens";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

function courseCard(page: Page, title: string) {
  return page
    .getByTestId("course-card")
    .filter({ has: page.getByRole("heading", { name: title }) });
}

/** The module titles of the admin's module list, in the order shown. */
async function expectModuleOrder(items: Locator, titles: string[]) {
  await expect(items.getByRole("heading", { level: 3 })).toHaveText(
    titles.map((title, index) => `Module ${index + 1}: ${title}`),
  );
}

/** Presses a key on the focused Move button and waits for the new order to be saved. */
async function pressAndSave(page: Page, key: string) {
  const saved = page.waitForResponse(
    (r) => r.url().endsWith("/modules/order") && r.request().method() === "PUT",
  );
  await page.keyboard.press(key);
  expect((await saved).status()).toBe(200);
}

test.describe("Course editing (admin)", () => {
  test("edit a course from its pencil, reorder modules by keyboard, unpublish and republish", async ({
    page,
    browser,
    admin,
    createCourse,
    createLearner,
    enroll,
    completeModules,
  }) => {
    test.slow();
    const stamp = uniqueEmail("x").slice(2, 10);
    const course = await createCourse({
      title: `Editing basics ${stamp}`,
      modules: 3,
      publish: true,
    });
    const learner = await createLearner({ name: "Uma Unavailable" });
    await enroll(learner.id, course.id);
    await completeModules(learner, course, 1);

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);
    await page.goto("/admin/courses");

    // The pencil opens the Create Course form, filled in with the course.
    await courseCard(page, course.title)
      .getByRole("button", { name: `Edit ${course.title}` })
      .click();
    const dialog = page.getByRole("dialog", { name: "Edit Course" });
    await expect(dialog.getByLabel("Course title")).toHaveValue(course.title);
    await expect(dialog.getByLabel("Description")).toHaveValue(course.description);
    await expect(dialog.getByLabel("Category")).toHaveText("Development");
    await expect(dialog.getByLabel("Duration (hours)")).toHaveValue(String(course.duration));
    await dialog.getByLabel("Course title").fill(" ");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(dialog.getByText("Title is required")).toBeVisible();

    const title = `Editing in depth ${stamp}`;
    await dialog.getByLabel("Course title").fill(title);
    await dialog
      .getByLabel("Description")
      .fill("Revised: change a course, reorder its modules and take it offline.");
    await dialog.getByLabel("Category").click();
    await page.getByRole("option", { name: "Design" }).click();
    await expect(dialog.getByLabel("Category")).toHaveText("Design");
    await screen(page, "course-edit-dialog");
    await page.setViewportSize(PHONE);
    await screen(page, "course-edit-dialog-mobile");
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Course updated successfully");
    await expect(dialog).toBeHidden();
    const card = courseCard(page, title);
    await expect(card).toContainText("Design");
    await expect(card).toContainText("Revised: change a course");

    // Module order by keyboard: Move down on the first module, twice.
    await card.getByRole("link", { name: `View ${title}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    const items = page.getByTestId("module-item");
    await expectModuleOrder(items, ["Module 1", "Module 2", "Module 3"]);
    await expect(page.getByRole("button", { name: "Move Module 1 up" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Move Module 3 down" })).toBeDisabled();
    const down = page.getByRole("button", { name: "Move Module 1 down" });
    await down.focus();
    await pressAndSave(page, "Enter");
    await expectModuleOrder(items, ["Module 2", "Module 1", "Module 3"]);
    await expect(down).toBeFocused();
    await expect(page.getByRole("status").filter({ hasText: "moved" })).toHaveText(
      "Module 1 moved to position 2 of 3.",
    );
    await pressAndSave(page, "Space");
    await expectModuleOrder(items, ["Module 2", "Module 3", "Module 1"]);
    // At the end Move down is disabled, so focus stays with the module on Move up.
    await expect(down).toBeDisabled();
    await expect(page.getByRole("button", { name: "Move Module 1 up" })).toBeFocused();
    await expect(page.getByRole("status").filter({ hasText: "moved" })).toHaveText(
      "Module 1 moved to position 3 of 3.",
    );

    await page.reload();
    await expectModuleOrder(items, ["Module 2", "Module 3", "Module 1"]);
    await screen(page, "course-modules-reordered");
    await page.setViewportSize(PHONE);
    await screen(page, "course-modules-reordered-mobile");
    await page.setViewportSize(DESKTOP);

    // Dragging a row works too: Module 1 back to the top.
    const dropped = page.waitForResponse(
      (r) => r.url().endsWith("/modules/order") && r.request().method() === "PUT",
    );
    await items.nth(2).dragTo(items.nth(0));
    expect((await dropped).status()).toBe(200);
    await expectModuleOrder(items, ["Module 1", "Module 2", "Module 3"]);
    await page.reload();
    await expectModuleOrder(items, ["Module 1", "Module 2", "Module 3"]);

    // Unpublish, after a confirmation that says what learners will see.
    await page.getByRole("button", { name: "Unpublish", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Unpublish this course?" });
    await expect(confirm).toContainText("keep their progress and certificates");
    await confirm.getByRole("button", { name: "Unpublish Course" }).click();
    await expectToast(page, "Course unpublished");
    await expect(confirm).toBeHidden();
    // The keyboard stays on the page: focus moves to the button that replaced 'Unpublish'.
    await expect(page.getByRole("button", { name: "Publish Course", exact: true })).toBeFocused();
    await expect(page.getByRole("button", { name: "Unpublish", exact: true })).toHaveCount(0);

    // The learner still sees the course, marked unavailable, with no way in.
    const learnerContext = await browser.newContext({
      extraHTTPHeaders: fromAddress("course-editing", stamp, "learner"),
    });
    const learnerPage = await learnerContext.newPage();
    await signIn(learnerPage, learner);
    await expect(learnerPage).toHaveURL(/\/learner$/);
    await dismissToast(learnerPage);
    const learnerCard = courseCard(learnerPage, title);
    await expect(learnerCard.getByTestId("course-unavailable")).toHaveText(
      "Unavailable — the provider has taken this course offline for now.",
    );
    await expect(learnerCard.getByRole("link")).toHaveCount(0);
    await expect(learnerCard).toContainText("33%");
    await screen(learnerPage, "learner-course-unavailable");
    await learnerPage.goto(`/course/${course.id}`);
    await expect(
      learnerPage.getByRole("heading", { level: 1, name: `${title} is unavailable` }),
    ).toBeVisible();
    await screen(learnerPage, "learner-player-unavailable");

    // Published again: the learner continues in the new order, their completion kept.
    await page.getByRole("button", { name: "Publish Course", exact: true }).click();
    await expectToast(page, "Course published successfully");
    await expect(page.getByRole("button", { name: "Unpublish", exact: true })).toBeVisible();
    await learnerPage.goto("/learner");
    await learnerCard.getByRole("link", { name: `Continue ${title}` }).click();
    // The player pins the module it opens in the address once it has rendered.
    await expect(learnerPage).toHaveURL(new RegExp(`/course/${course.id}(\\?module=[\\w-]+)?$`));
    await expect(learnerPage.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await learnerContext.close();
  });
});
