import type { Page } from "@playwright/test";
import type { Course } from "../src/contract";
import { HOSTILE_STRINGS } from "../src/server/security/hostile-strings";
import { expect, signIn, test, uniqueEmail } from "./support/fixtures";

/**
 * Hostile titles, descriptions and names are stored verbatim (the API suite
 * proves it) and must render as inert text on every screen that shows them.
 */

/** Elements or values a successful injection would leave behind. */
async function expectNothingInjected(page: Page, where: string, dialogs: string[]) {
  expect(dialogs, `dialogs on ${where}`).toEqual([]);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss), where).toBeUndefined();
  await expect(
    page.locator(
      'img[onerror], svg[onload], iframe, [srcdoc], a[href^="javascript:" i], script:not([src])',
    ),
    where,
  ).toHaveCount(0);
}

async function expectVerbatim(page: Page, texts: string[], where: string) {
  for (const text of texts) {
    await expect(
      page.getByText(text, { exact: true }).filter({ visible: true }).first(),
      `${where}: ${text}`,
    ).toBeVisible();
  }
}

test.describe("hostile text renders inert", () => {
  test("course titles, descriptions and learner names show as text on admin and learner screens", async ({
    page,
    admin,
    createCourse,
    createLearner,
    enroll,
  }) => {
    test.slow();
    const stamp = uniqueEmail("x").slice(2, 10);
    const hostile = Object.values(HOSTILE_STRINGS);
    const titles = hostile.map((text) => `${text} ${stamp}`);
    const courses: Course[] = [];
    for (const [i, title] of titles.entries()) {
      courses.push(
        await createCourse({ title, description: hostile[i], modules: 1, publish: true }),
      );
    }
    const learnerNames = [HOSTILE_STRINGS.moodle, HOSTILE_STRINGS.imgOnerror].map(
      (text) => `${text} ${stamp}`,
    );
    const learner = await createLearner({ name: learnerNames[0] });
    await createLearner({ name: learnerNames[1], withPassword: false });
    for (const course of courses) await enroll(learner.id, course.id);

    const dialogs: string[] = [];
    page.on("dialog", async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });

    await test.step("admin courses list and course detail", async () => {
      await signIn(page, admin);
      await expect(page).toHaveURL(/\/admin$/);
      await expectNothingInjected(page, "admin dashboard", dialogs);
      await page.goto("/admin/courses");
      await page
        .getByRole("searchbox", { name: "Search courses by title or category" })
        .fill(stamp);
      await expectVerbatim(page, titles, "admin courses");
      await expectNothingInjected(page, "admin courses", dialogs);
      await page.goto(`/admin/courses/${courses[0]!.id}`);
      await expectVerbatim(page, [titles[0]!, hostile[0]!], "admin course detail");
      await expectNothingInjected(page, "admin course detail", dialogs);
    });

    await test.step("admin learners page", async () => {
      await page.goto("/admin/learners");
      await page.getByRole("searchbox", { name: "Search learners by name or email" }).fill(stamp);
      await expectVerbatim(page, learnerNames, "admin learners");
      await expectNothingInjected(page, "admin learners", dialogs);
      await page.getByRole("button", { name: "Log out" }).click();
      await expect(page).toHaveURL(/\/$/);
    });

    await test.step("learner dashboard and course player", async () => {
      await signIn(page, learner);
      await expect(page).toHaveURL(/\/learner$/);
      await expectVerbatim(page, titles, "learner dashboard");
      await expectNothingInjected(page, "learner dashboard", dialogs);
      for (const course of courses.slice(0, 3)) {
        await page.goto(`/course/${course.id}`);
        await expectVerbatim(page, [course.title], `course player ${course.title}`);
        await expectNothingInjected(page, `course player ${course.title}`, dialogs);
      }
      await page.goto("/profile");
      await expect(page.getByLabel("Full name")).toHaveValue(learnerNames[0]!);
      await expectNothingInjected(page, "profile", dialogs);
    });
  });
});
