import type { Locator, Page } from "@playwright/test";
import { dismissToast, expect, signIn, test, uniqueEmail } from "./support/fixtures";
import { screen } from "./support/screens";

/** Tab, `presses` times, never leaves `dialog` (a modal keeps the keyboard inside it). */
async function expectTabStaysIn(page: Page, dialog: Locator, presses: number) {
  for (let i = 0; i < presses; i += 1) {
    await page.keyboard.press("Tab");
    await expect(dialog.locator("*:focus")).toHaveCount(1);
  }
}

/** Opens a dialog with Enter on `opener`; Escape closes it and the opener has the focus again. */
async function openAndEscape(page: Page, opener: Locator, dialog: Locator) {
  await opener.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test.describe("Keyboard use of dialogs, the phone menu and form errors", () => {
  test("dialogs keep and return the focus, errors are tied to their fields", async ({
    page,
    admin,
    createCourse,
    createLearner,
  }) => {
    test.slow();
    const stamp = uniqueEmail("kb").slice(3, 11);
    const course = await createCourse({ title: `Keyboard only ${stamp}`, modules: 1 });
    const learner = await createLearner({ name: `Kay Board ${stamp}` });
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);

    // The sidebar's Create Course: focus moves in, Tab stays in, errors name their field.
    const sidebarCreate = page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("button", { name: "Create Course" });
    await sidebarCreate.focus();
    await page.keyboard.press("Enter");
    const create = page.getByRole("dialog", { name: "Create Course" });
    await expect(create.getByLabel("Course title")).toBeFocused();
    await expectTabStaysIn(page, create, 12);
    await create.getByRole("button", { name: "Create Course" }).click();
    await expect(create.getByLabel("Course title")).toBeFocused();
    await expect(create.getByLabel("Course title")).toHaveAttribute("aria-invalid", "true");
    await expect(create.getByLabel("Course title")).toHaveAccessibleDescription(
      "Title is required",
    );
    await screen(page, "keyboard-create-course-errors");
    await page.keyboard.press("Escape");
    await expect(create).toBeHidden();
    await expect(sidebarCreate).toBeFocused();

    // A course's pencil and its Delete confirmation give the focus back to their buttons.
    await page.goto("/admin/courses");
    await openAndEscape(
      page,
      page.getByRole("button", { name: `Edit ${course.title}` }),
      page.getByRole("dialog", { name: "Edit Course" }),
    );
    const del = page.getByRole("button", { name: `Delete ${course.title}` });
    await del.focus();
    await page.keyboard.press("Enter");
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await expectTabStaysIn(page, confirm, 3);
    await page.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    await expect(del).toBeFocused();

    // A question sent empty: each option's refusal is its field's description.
    await page.goto(`/admin/courses/${course.id}`);
    const addQuestion = page.getByRole("button", { name: "Add question" }).first();
    await addQuestion.focus();
    await page.keyboard.press("Enter");
    const question = page.getByRole("dialog", { name: "Add question" });
    await question.getByRole("button", { name: "Add question" }).click();
    const optionA = question.getByRole("textbox", { name: "Option A", exact: true });
    await expect(optionA).toHaveAttribute("aria-invalid", "true");
    await expect(optionA).toHaveAccessibleDescription(/\S/);
    await screen(page, "keyboard-question-errors");
    await page.keyboard.press("Escape");
    await expect(question).toBeHidden();
    await expect(addQuestion).toBeFocused();

    // Inline refusals outside dialogs are tied to their fields too.
    await page.goto("/admin/reporting");
    const days = page.getByLabel("Report within (days)");
    await days.fill("0");
    await expect(days).toHaveAccessibleDescription("Between 1 and 365 days");
    await page.goto(`/admin/learners/${learner.id}`);
    await page.getByLabel("From").fill("2025-02-01");
    await page.getByLabel("To", { exact: true }).fill("2025-01-01");
    await expect(page.getByLabel("To", { exact: true })).toHaveAccessibleDescription(
      "The end date is before the start date.",
    );
    await screen(page, "keyboard-audit-export-error");

    // On a phone: the menu opens and closes by keyboard, and says whether it is open.
    await page.goto("/admin");
    await page.setViewportSize({ width: 390, height: 844 });
    const menu = page.getByRole("button", { name: "Open menu", includeHidden: true });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.focus();
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    await expect(drawer).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expectTabStaysIn(page, drawer, 12);
    await screen(page, "keyboard-menu-390");
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();
    await expect(menu).toHaveAttribute("aria-expanded", "false");

    // Create Course from the drawer, the first time and once its form has loaded: closing it
    // comes back to the menu button.
    for (const time of [1, 2]) {
      await page.keyboard.press("Enter");
      await drawer.getByRole("button", { name: "Create Course" }).focus();
      await page.keyboard.press("Enter");
      await expect(create.getByLabel("Course title")).toBeFocused();
      if (time === 1) await screen(page, "keyboard-create-course-390");
      await page.keyboard.press("Escape");
      await expect(create).toBeHidden();
      await expect(menu).toBeFocused();
    }
  });
});
