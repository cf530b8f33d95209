import type { Page } from "@playwright/test";
import type { AdminStats } from "../src/contract";
import {
  answerConfirm,
  dismissToast,
  expect,
  expectToast,
  signIn,
  test,
  uniqueEmail,
} from "./support/fixtures";
import { screen } from "./support/screens";

function learnerCard(page: Page, name: string) {
  return page.getByTestId("learner-card").filter({ has: page.getByRole("heading", { name }) });
}

function searchBox(page: Page) {
  return page.getByRole("searchbox", { name: "Search learners by name or email" });
}

test.describe("Learners (admin)", () => {
  test("add a learner with two courses, find, restrict, enroll, unenroll and delete them", {
    tag: "@whole-portal",
  }, async ({ page, admin, adminApi, createCourse }) => {
    const stamp = uniqueEmail("s").slice(2, 10);
    const [first, second, third] = await Promise.all(
      ["Intro to Kotlin", "Swift Basics", "Flutter in Practice"].map((title) =>
        createCourse({ title: `${title} ${stamp}`, category: "Mobile", modules: 1, publish: true }),
      ),
    );
    const draft = await createCourse({ title: `Unpublished draft ${stamp}` });
    const name = `Maya Patel ${stamp}`;
    const email = uniqueEmail("maya");

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Learners" })
      .click();
    await expect(page).toHaveURL(/\/admin\/learners$/);

    // Add Learner: validation first, then two published courses.
    await page.getByRole("button", { name: "Add Learner" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add Learner" });
    await dialog.getByRole("button", { name: "Add Learner" }).click();
    await expect(dialog.getByText("Name is required")).toBeVisible();
    await expect(dialog.getByText("Email is required")).toBeVisible();
    await expect(dialog.getByLabel("Email", { exact: true })).toHaveAttribute("type", "email");
    await expect(dialog.getByRole("checkbox", { name: new RegExp(draft.title) })).toHaveCount(0);

    await dialog.getByLabel("Full name").fill(name);
    await dialog.getByLabel("Email", { exact: true }).fill(email);
    await dialog.getByLabel("Phone").fill("+1 555 0142");
    await dialog.getByRole("checkbox", { name: new RegExp(first!.title) }).check();
    await dialog.getByRole("checkbox", { name: new RegExp(second!.title) }).check();
    await page.mouse.move(0, 0);
    await screen(page, "admin-add-learner-dialog");

    const registerRequest = page.waitForRequest("**/api/auth/register");
    const enrollments: unknown[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/enrollments") && r.method() === "POST") {
        enrollments.push(r.postDataJSON());
      }
    });
    await dialog.getByRole("button", { name: "Add Learner" }).click();
    expect((await registerRequest).postDataJSON()).toEqual({
      firebaseUid: expect.stringMatching(/^temp_\d{13}$/),
      email,
      name,
      role: "learner",
      phone: "+1 555 0142",
      status: "active",
      isRegisteredByAdmin: true,
      passwordSetup: false,
    });
    await expectToast(
      page,
      "Learner added successfully",
      `An invitation email has been sent to ${email}.`,
    );
    expect(enrollments).toEqual([
      {
        userId: expect.any(String),
        courseId: first!.id,
        progress: 0,
        completedModules: [],
        isCompleted: false,
      },
      {
        userId: expect.any(String),
        courseId: second!.id,
        progress: 0,
        completedModules: [],
        isCompleted: false,
      },
    ]);
    await expect(dialog).toBeHidden();

    // The same email again: the server's reason is shown.
    await page.getByRole("button", { name: "Add Learner" }).first().click();
    await dialog.getByLabel("Full name").fill("Someone Else");
    await dialog.getByLabel("Email", { exact: true }).fill(email.toUpperCase());
    await dialog.getByRole("button", { name: "Add Learner" }).click();
    await expectToast(page, "Error adding learner", "An account with this email already exists.");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // Find them by name, then by email (server-side search).
    await searchBox(page).fill(`patel ${stamp}`);
    const card = learnerCard(page, name);
    await expect(page.getByTestId("learner-card")).toHaveCount(1);
    await expect(card).toBeVisible();
    await searchBox(page).fill(email);
    await expect(page.getByTestId("learner-card")).toHaveCount(1);
    await expect(card).toContainText(email);
    await expect(card).toContainText("+1 555 0142");
    await expect(card).toContainText(
      `Joined ${new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date())}`,
    );
    await expect(card.getByText("Active", { exact: true })).toBeVisible();
    // Added by an administrator, no password yet: invited beside the spec's status.
    await expect(card.getByText("Invited", { exact: true })).toBeVisible();
    await expect(card.getByTestId("learner-progress-badge")).toHaveText("0% complete");
    await expect(card.getByRole("definition").nth(0)).toHaveText("2"); // Enrolled
    await expect(card.getByRole("definition").nth(1)).toHaveText("0"); // In Progress
    await expect(card.getByRole("definition").nth(2)).toHaveText("0"); // Completed
    const chips = card.getByRole("list", { name: "Enrolled courses" }).getByRole("listitem");
    await expect(chips).toHaveCount(2);
    await expect(chips.filter({ hasText: first!.title })).toContainText("0%");
    await dismissToast(page);
    await screen(page, "admin-learners-search");

    // Restrict, then unrestrict: the server's message is shown.
    await card.getByRole("button", { name: `Restrict ${name}` }).click();
    await expectToast(page, "Learner restricted", `${name} has been restricted and signed out.`);
    await expect(card.getByText("Restricted", { exact: true })).toBeVisible();
    await card.getByRole("button", { name: `Unrestrict ${name}` }).click();
    await expectToast(page, "Learner unrestricted", `${name} can sign in again.`);
    await expect(card.getByText("Active", { exact: true })).toBeVisible();

    // Enroll in a third course: only published courses they do not have are offered.
    await card.getByRole("button", { name: "Enroll in courses" }).click();
    const enroll = page.getByRole("dialog", { name: "Enroll in courses" });
    await expect(enroll.getByRole("checkbox", { name: new RegExp(third!.title) })).toBeVisible();
    await expect(enroll.getByRole("checkbox", { name: new RegExp(first!.title) })).toHaveCount(0);
    await expect(enroll.getByRole("checkbox", { name: new RegExp(draft.title) })).toHaveCount(0);
    await enroll.getByRole("checkbox", { name: new RegExp(third!.title) }).check();
    await page.mouse.move(0, 0);
    await screen(page, "admin-enroll-dialog");
    await enroll.getByRole("button", { name: "Enroll" }).click();
    await expectToast(page, "Learner enrolled", `${name} is now enrolled in ${third!.title}.`);
    await expect(chips).toHaveCount(3);
    await expect(card.getByRole("definition").nth(0)).toHaveText("3");

    // Remove one enrollment after a confirmation.
    await card.getByRole("button", { name: `Remove ${name} from ${second!.title}` }).click();
    await answerConfirm(page, "confirm");
    await expectToast(page, "Enrollment removed");
    await expect(chips).toHaveCount(2);
    await expect(card.getByRole("definition").nth(0)).toHaveText("2");

    // Totals match the server's aggregate figures.
    const stats = (await (await adminApi.get("/api/admin/stats")).json()) as AdminStats;
    const totals = page.getByRole("region", { name: "Totals" });
    await expect(totals.getByTestId("stat-card").nth(0)).toContainText(String(stats.totalLearners));
    await expect(totals.getByTestId("stat-card").nth(1)).toContainText(
      String(stats.totalEnrollments),
    );
    await expect(totals.getByTestId("stat-card").nth(2)).toContainText(String(stats.completions));

    // Delete: the confirmation names the enrollments.
    await card.getByRole("button", { name: `Delete ${name}` }).click();
    const confirmText = await answerConfirm(page, "confirm");
    await expectToast(page, "Learner deleted");
    expect(confirmText).toContain("remove all of the learner's enrollments");
    await expect(card).toHaveCount(0);
    await expect(page.getByText("No learners found matching your search")).toBeVisible();
    const gone = await adminApi.get(`/api/users/learners?q=${encodeURIComponent(email)}`);
    expect(await gone.json()).toEqual([]);
  });

  test("progress badges, 'No courses', pagination and failure toasts", async ({
    page,
    admin,
    adminApi,
    createCourse,
    createLearner,
    enroll,
    completeModules,
  }) => {
    const stamp = uniqueEmail("p").slice(2, 10);
    const course = await createCourse({
      title: `Two-part course ${stamp}`,
      modules: 2,
      publish: true,
    });
    const busy = await createLearner({ name: `Busy Bee ${stamp}` });
    await enroll(busy.id, course.id);
    await completeModules(busy, course, 1);
    await createLearner({ name: `Idle Ivy ${stamp}`, withPassword: false });
    // 28 more, so the search for the stamp spans two pages of 25.
    for (let i = 0; i < 28; i += 1) {
      const res = await adminApi.post("/api/auth/register", {
        data: { email: uniqueEmail("page"), name: `Page Filler ${stamp} ${i}` },
      });
      expect(res.status()).toBe(201);
    }

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto("/admin/learners");
    await dismissToast(page);

    // Until the search answers, the previous list stays on screen (and may hold only these
    // learners too, when they are all there is): wait for the search's own answer.
    const searched = page.waitForResponse(
      (res) => res.url().includes("/api/users/learners?") && res.url().includes(`q=${stamp}`),
    );
    await searchBox(page).fill(stamp);
    await searched;
    const cards = page.getByTestId("learner-card");
    await expect(cards.filter({ hasNotText: stamp })).toHaveCount(0);
    await expect(cards).toHaveCount(25);
    await expect(page.getByRole("button", { name: "Load more" })).toBeEnabled();
    // The next page loads by itself as the end of the list scrolls into view ('Load more'
    // is there for keyboard users and as a fallback).
    const loadMore = page.getByRole("button", { name: "Load more" });
    await expect(loadMore).toBeAttached();
    await loadMore.evaluate((el) => el.scrollIntoView());
    await expect(cards).toHaveCount(30);
    await expect(page.getByText("All 30 learners shown")).toBeVisible();

    await searchBox(page).fill(`Busy Bee ${stamp}`);
    const busyCard = learnerCard(page, `Busy Bee ${stamp}`);
    await expect(cards).toHaveCount(1);
    await expect(busyCard.getByTestId("learner-progress-badge")).toHaveText("50% complete");
    await expect(busyCard.getByRole("definition").nth(1)).toHaveText("1"); // In Progress
    await expect(busyCard.getByRole("listitem").filter({ hasText: course.title })).toContainText(
      "50%",
    );

    await searchBox(page).fill(`Idle Ivy ${stamp}`);
    const idleCard = learnerCard(page, `Idle Ivy ${stamp}`);
    await expect(cards).toHaveCount(1);
    await expect(idleCard.getByTestId("learner-progress-badge")).toHaveText("No courses");
    await screen(page, "admin-learners-no-courses");

    // Failures get the spec's toasts and change nothing on screen.
    await page.route("**/api/users/learners/*/restrict", (route) =>
      route.fulfill({ status: 500, json: { message: "down" } }),
    );
    await idleCard.getByRole("button", { name: `Restrict Idle Ivy ${stamp}` }).click();
    await expectToast(page, "Error", "Failed to update learner status");
    await expect(idleCard.getByText("Active", { exact: true })).toBeVisible();
    await page.route("**/api/users/learners/*", (route) =>
      route.request().method() === "DELETE"
        ? route.fulfill({ status: 500, json: { message: "down" } })
        : route.fallback(),
    );
    await idleCard.getByRole("button", { name: `Delete Idle Ivy ${stamp}` }).click();
    await answerConfirm(page, "confirm");
    await expectToast(page, "Error", "Failed to delete learner");
    await expect(idleCard).toBeVisible();

    // A declined confirmation deletes nothing.
    await page.unrouteAll();
    await idleCard.getByRole("button", { name: `Delete Idle Ivy ${stamp}` }).click();
    await answerConfirm(page, "cancel");
    await expect(idleCard).toBeVisible();

    // Back to everyone: the first page (the next one may follow by itself if the end of
    // the list comes near the viewport while it lays out).
    await searchBox(page).fill("");
    await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(25);
    await dismissToast(page);
    await screen(page, "admin-learners");
  });
});
