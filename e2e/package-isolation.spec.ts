import type { Frame, Page } from "@playwright/test";
import type { Course } from "../src/contract";
import { expect, signIn, test } from "./support/fixtures";
import { hostilePackage } from "./support/hostile-package";
import { addPackageModule } from "./support/packages";
import { screensAtBothWidths } from "./support/screens";
import { SERVER_URL } from "./support/server-url";

/** The hostile page's frame, once its attempts are all made. */
async function hostileFrame(page: Page): Promise<Frame> {
  let frame: Frame | undefined;
  await expect
    .poll(() => {
      frame = page.frames().find((f) => f.url().endsWith("/hostile.html"));
      return frame ? frame.locator('li[data-attempt="done"]').count() : 0;
    })
    .toBe(1);
  return frame!;
}

/** What each attempt of the hostile package achieved, by attempt. */
async function attempts(frame: Frame): Promise<Record<string, string>> {
  const items = await frame.locator("li[data-attempt]").all();
  const entries = await Promise.all(
    items.map(async (li) => [await li.getAttribute("data-attempt"), await li.textContent()]),
  );
  return Object.fromEntries(entries);
}

/** None of it worked: nothing of the portal read, nothing changed, the window still ours. */
async function expectNothingAchieved(page: Page, frame: Frame, who: { email: string }) {
  const seen = await attempts(frame);
  expect(seen.cookie).not.toMatch(/credo|session/i);
  expect(seen["top document"]).toMatch(/^blocked/);
  expect(seen["top storage"]).toMatch(/^blocked/);
  // The portal's answers are unreadable from the content origin (no CORS), and the portal
  // would have answered as a signed-out visitor anyway.
  expect(seen.me).toMatch(/^blocked/);
  expect(seen["admin route"]).toMatch(/^blocked/);
  expect(Object.values(seen).join(" ")).not.toContain(who.email);
  // The portal's window stayed where it was.
  expect(page.url()).not.toContain("hijacked");
  expect(page.url()).not.toContain("opened");
}

test.describe("Package content cannot act as the portal's user", () => {
  test("a hostile package played by a learner and previewed by an administrator achieves nothing", async ({
    page,
    admin,
    adminApi,
    createCourse,
    createLearner,
    enroll,
  }) => {
    test.slow();
    const course = await createCourse({ title: "Isolation check" });
    await addPackageModule(adminApi, course.id, {
      kind: "scorm",
      file: "hostile.zip",
      title: "Hostile lesson",
      made: hostilePackage(SERVER_URL),
    });
    const published = await adminApi.patch(`/api/courses/${course.id}/publish`);
    expect(published.status(), await published.text()).toBe(200);
    const learner = await createLearner();
    await enroll(learner.id, course.id);

    // The learner plays it.
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto(`/course/${course.id}`);
    const played = await hostileFrame(page);
    await expectNothingAchieved(page, played, learner);
    await expect(page).toHaveURL(new RegExp(`/course/${course.id}(\\?|$)`));
    // Still signed in: the package could not sign the learner out either.
    expect((await page.request.get("/api/auth/me")).status()).toBe(200);

    // The administrator previews it.
    await page.context().clearCookies();
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto(`/admin/courses/${course.id}`);
    await page.getByRole("button", { name: "Preview Hostile lesson" }).click();
    const previewed = await hostileFrame(page);
    await expectNothingAchieved(page, previewed, admin);
    await screensAtBothWidths(page, "admin-package-preview", {
      exclude: ['[data-testid="package-preview-frame"]'],
    });
    await expect(page).toHaveURL(new RegExp(`/admin/courses/${course.id}$`));

    // Neither the fetch nor the form made a course. Other journeys add courses to the same portal
    // at the same time, so the check is by the title the package would have used.
    const after = (await (await adminApi.get("/api/courses")).json()) as Course[];
    expect(after.map((c) => c.title)).not.toContain("Planted by a package");
  });
});
