import { dismissToast, expect, expectToast, signIn, test, uniqueEmail } from "./support/fixtures";
import { screen } from "./support/screens";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

test.describe("Audit list (admin)", () => {
  // The unfiltered list is the whole portal's, newest first: nobody else may write meanwhile.
  test("an edited title and a reorder show in the audit list, filtered to their course", {
    tag: "@whole-portal",
  }, async ({ page, admin, createCourse }) => {
    test.slow();
    const stamp = uniqueEmail("x").slice(2, 10);
    const course = await createCourse({
      title: `Audit basics ${stamp}`,
      modules: 3,
      publish: true,
    });
    // Another course's events, which the course filter leaves out.
    const other = await createCourse({ title: `Audit other ${stamp}`, modules: 1 });

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);

    // Edit the title.
    await page.goto("/admin/courses");
    const card = page
      .getByTestId("course-card")
      .filter({ has: page.getByRole("heading", { name: course.title }) });
    await card.getByRole("button", { name: `Edit ${course.title}` }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Course" });
    const title = `Audit in depth ${stamp}`;
    await dialog.getByLabel("Course title").fill(title);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Course updated successfully");
    await dismissToast(page);

    // Reorder: Module 1 down one place.
    await page.goto(`/admin/courses/${course.id}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/modules/order") && r.request().method() === "PUT",
    );
    await page.getByRole("button", { name: "Move Module 1 down" }).click();
    expect((await saved).status()).toBe(200);

    // The audit list, from the admin navigation.
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Audit" })
      .click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByRole("heading", { level: 1, name: "Audit trail" })).toBeVisible();
    const rows = page.getByTestId("audit-event");
    // Unfiltered, newest first: the reorder tops the list, the other course is in it.
    await expect(rows.first()).toContainText("Reordered the modules");
    await expect(rows.filter({ hasText: `Created the course “${other.title}”` })).toHaveCount(1);

    await page.getByLabel("Course", { exact: true }).selectOption({ label: title });
    await expect(page).toHaveURL(new RegExp(`courseId=${course.id}`));
    await expect(rows).toHaveCount(7);
    await expect(rows.filter({ hasText: other.title })).toHaveCount(0);
    await expect(rows.nth(0)).toContainText("Modules reordered");
    await expect(rows.nth(0)).toContainText(
      "Reordered the modules: 1. Module 2, 2. Module 1, 3. Module 3",
    );
    await expect(rows.nth(0)).toContainText(admin.email);
    await expect(rows.nth(1)).toContainText("Course details edited");
    await expect(rows.nth(1)).toContainText(
      `Edited the course: title from “${course.title}” to “${title}”`,
    );
    await expect(rows.nth(2)).toContainText("Course published");
    await expect(rows.nth(6)).toContainText(`Created the course “${course.title}”`);
    await expect(page.getByText("All 7 events shown")).toBeVisible();
    // The export holds the same events.
    await expect(page.getByTestId("audit-export")).toHaveAttribute(
      "href",
      `/api/audit?courseId=${course.id}`,
    );
    await screen(page, "audit-list");

    // What: one kind of event.
    await page.getByLabel("What", { exact: true }).selectOption({ label: "Modules reordered" });
    await expect(rows).toHaveCount(1);
    await expect(page.getByTestId("audit-export")).toHaveAttribute(
      "href",
      `/api/audit?type=course.modules_reordered&courseId=${course.id}`,
    );
    await page.getByLabel("What", { exact: true }).selectOption({ label: "All events" });
    await expect(rows).toHaveCount(7);

    // On a phone each event is a card of its own, emails whole.
    await page.setViewportSize(PHONE);
    const cards = page.getByTestId("audit-event-card");
    await expect(cards).toHaveCount(7);
    await expect(rows.first()).toBeHidden();
    await expect(cards.first()).toContainText("Reordered the modules");
    const email = cards.first().getByText(admin.email);
    await expect(email).toBeVisible();
    // One line: the address is never broken mid-word.
    const box = await email.boundingBox();
    expect(box!.height).toBeLessThan(24);
    await screen(page, "audit-list-mobile");
    await page.setViewportSize(DESKTOP);
  });
});
