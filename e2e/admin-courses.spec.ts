import type { Locator, Page } from "@playwright/test";
import type { Course } from "../src/contract";
import {
  answerConfirm,
  dismissToast,
  expect,
  expectToast,
  FIXTURE_FILES,
  signIn,
  test,
  uniqueEmail,
} from "./support/fixtures";
import { screen, screensAtBothWidths } from "./support/screens";

/** The hidden file input of the Uppy dashboard inside `scope`. */
function uppyInput(scope: Locator) {
  return scope.locator("input.uppy-Dashboard-input[type=file]").first();
}

function courseCard(page: Page, title: string) {
  return page
    .getByTestId("course-card")
    .filter({ has: page.getByRole("heading", { name: title }) });
}

/** Plays the preview muted and waits for its clock to advance: the bytes really play. */
async function expectVideoPlays(video: Locator) {
  await expect(video).toHaveAttribute("src", /^\/objects\/uploads\/[\w-]+$/);
  await video.evaluate(async (el: HTMLVideoElement) => {
    el.muted = true;
    await el.play();
  });
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime))
    .toBeGreaterThan(0.2);
  await video.evaluate((el: HTMLVideoElement) => el.pause());
}

test.describe("Courses and modules (admin)", () => {
  test("create a course with a thumbnail, build its modules, publish, search and delete it", async ({
    page,
    admin,
  }) => {
    // The longest flow of the suite: three real uploads and a video that must play.
    test.slow();
    const stamp = uniqueEmail("x").slice(2, 10);
    const title = `SQL Fundamentals ${stamp}`;
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);

    // Both empty states: 'No courses created yet' needs a portal without courses; other
    // tests make some at any time, so the list is answered empty for this page.
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Courses" })
      .click();
    await expect(page).toHaveURL(/\/admin\/courses$/);
    await page.route("**/api/courses", (route) => route.fulfill({ json: [] }));
    await page.reload();
    await expect(page.getByText("No courses created yet")).toBeVisible();
    await screen(page, "admin-courses-empty");
    await page.unrouteAll();

    // Create Course dialog from the sidebar entry.
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("button", { name: "Create Course" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Create Course" });
    await expect(dialog).toBeVisible();
    await expect(uppyInput(dialog)).toBeAttached();
    await dialog.getByRole("button", { name: "Create Course" }).click();
    await expect(dialog.getByText("Title is required")).toBeVisible();
    await expect(dialog.getByText("Description is required")).toBeVisible();
    await expect(dialog.getByText("Category is required")).toBeVisible();
    await expect(dialog.getByText("Duration must be a number")).toBeVisible();
    await screen(page, "admin-create-course-validation");

    // Too long a title: the limit in words, never a validator's "Too big: …<=200".
    await dialog.getByLabel("Course title").fill("T".repeat(201));
    await dialog.getByRole("button", { name: "Create Course" }).click();
    await expect(dialog.getByText("Title must be at most 200 characters")).toBeVisible();
    await expect(dialog.getByText(/Too big|<=/)).toHaveCount(0);
    await screensAtBothWidths(page, "admin-create-course-title-too-long");

    await dialog.getByLabel("Course title").fill(title);
    await dialog.getByLabel("Description").fill("Query, join and shape relational data with SQL.");
    await dialog.getByLabel("Category").click();
    await page.getByRole("option", { name: "Database" }).click();
    await dialog.getByLabel("Duration (hours)").fill("0");
    await dialog.getByRole("button", { name: "Create Course" }).click();
    await expect(dialog.getByText("Duration must be at least 1 hour")).toBeVisible();
    await dialog.getByLabel("Duration (hours)").fill("6");

    // Thumbnail through Uppy: URL, PUT, then set-acl.
    const aclRequest = page.waitForRequest("**/api/objects/set-acl");
    await uppyInput(dialog).setInputFiles(FIXTURE_FILES.thumbnail);
    const aclBody = (await aclRequest).postDataJSON() as { objectURL: string };
    expect(aclBody.objectURL).toMatch(/^\/api\/objects\/upload\/[\w-]{24}$/);
    await expectToast(page, "Thumbnail uploaded");
    const preview = dialog.getByRole("img", { name: "Uploaded thumbnail preview" });
    await expect(preview).toHaveAttribute("src", /^\/objects\/uploads\/[\w-]{24}$/);
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await screen(page, "admin-create-course-dialog");

    const createRequest = page.waitForRequest(
      (r) => r.url().endsWith("/api/courses") && r.method() === "POST",
    );
    // A double click makes one course.
    await dialog.getByRole("button", { name: "Create Course" }).dblclick();
    const createBody = (await createRequest).postDataJSON();
    expect(createBody).toMatchObject({
      title,
      category: "Database",
      duration: 6,
      thumbnail: expect.stringMatching(/^\/objects\/uploads\//),
      createdBy: expect.any(String),
      modules: [],
    });
    await expectToast(page, "Course created successfully");
    await expect(page).toHaveURL(/\/admin\/courses\/[^/]+$/);
    const courseUrl = page.url();
    const listed = (await (await page.request.get("/api/courses")).json()) as Course[];
    const created = listed.filter((course) => course.title === title);
    expect(created).toHaveLength(1);

    // A new course is a draft without modules: Publish is disabled.
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("Draft", { exact: true }).first()).toBeVisible();
    const publish = page.getByRole("button", { name: "Publish Course" });
    await expect(publish).toBeDisabled();
    await expect(page.getByText("No modules yet")).toBeVisible();
    await dismissToast(page);
    await screen(page, "admin-course-detail-draft");

    // Add Module: the video is required.
    await page.getByRole("button", { name: "Add Module" }).first().click();
    let moduleDialog = page.getByRole("dialog", { name: "Add Module" });
    await moduleDialog.getByLabel("Module title").fill("Selecting rows");
    await moduleDialog.getByLabel("Duration (minutes)").fill("12");
    await moduleDialog.getByLabel("Description").fill("SELECT, WHERE and ORDER BY.");
    await moduleDialog.getByRole("button", { name: "Add Module" }).click();
    await expectToast(page, "Video required", "Please upload a video for this module.");
    await expect(moduleDialog).toBeVisible();

    await uppyInput(moduleDialog).setInputFiles(FIXTURE_FILES.video);
    await expectToast(page, "Video uploaded");
    await expect(moduleDialog.getByTestId("video-uploaded")).toContainText("sample-video.mp4");
    await screen(page, "admin-module-dialog");
    const addRequest = page.waitForRequest(
      (r) => r.url().endsWith("/modules") && r.method() === "POST",
    );
    await moduleDialog.getByRole("button", { name: "Add Module" }).click();
    const firstModule = (await addRequest).postDataJSON();
    expect(firstModule).toMatchObject({
      id: expect.stringMatching(/^module_\d{13}$/),
      title: "Selecting rows",
      duration: 12,
      description: "SELECT, WHERE and ORDER BY.",
      videoUrl: expect.stringMatching(/^\/objects\/uploads\//),
    });
    await expectToast(page, "Module added successfully");
    await expect(moduleDialog).toBeHidden();

    // Second module with the second sample video.
    await page.getByRole("button", { name: "Add Module" }).first().click();
    moduleDialog = page.getByRole("dialog", { name: "Add Module" });
    await moduleDialog.getByLabel("Module title").fill("Joining tables");
    await moduleDialog.getByLabel("Duration (minutes)").fill("18");
    // Hold the PUT of the bytes to see the progress bar and the busy submit button.
    let releasePut: () => void = () => {};
    const putHeld = new Promise<void>((resolve) => {
      releasePut = resolve;
    });
    await page.route("**/api/objects/upload/*", async (route) => {
      await putHeld;
      await route.continue();
    });
    await uppyInput(moduleDialog).setInputFiles(FIXTURE_FILES.video2);
    await expect(moduleDialog.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
    await expect(
      moduleDialog.getByRole("button", { name: "Waiting for upload..." }),
    ).toBeDisabled();
    await screen(page, "admin-module-uploading");
    releasePut();
    await expectToast(page, "Video uploaded");
    await page.unrouteAll();
    await moduleDialog.getByRole("button", { name: "Add Module" }).click();
    await expectToast(page, "Module added successfully");
    const modules = page.getByTestId("module-item");
    await expect(modules).toHaveCount(2);
    await expect(modules.nth(0)).toContainText("Selecting rows");
    await expect(modules.nth(1)).toContainText("Joining tables");
    await expect(publish).toBeEnabled();

    // Edit the first module; its video stays unless replaced.
    await page.getByRole("button", { name: "Edit Selecting rows" }).click();
    const editDialog = page.getByRole("dialog", { name: "Edit Module" });
    await expect(editDialog.getByLabel("Module title")).toHaveValue("Selecting rows");
    await expect(editDialog.getByTestId("video-uploaded")).toContainText("Current video");
    await editDialog.getByLabel("Module title").fill("Selecting and filtering rows");
    await editDialog.getByLabel("Duration (minutes)").fill("14");
    const updateRequest = page.waitForRequest(
      (r) => r.method() === "PUT" && r.url().includes("/modules/"),
    );
    await editDialog.getByRole("button", { name: "Save Changes" }).click();
    expect((await updateRequest).postDataJSON()).toMatchObject({
      id: firstModule.id,
      title: "Selecting and filtering rows",
      duration: 14,
      videoUrl: firstModule.videoUrl,
    });
    await expectToast(page, "Module updated successfully");
    await expect(modules.nth(0)).toContainText("Selecting and filtering rows");
    await expect(modules.nth(0)).toContainText("14 minutes");

    // The admin preview really plays the uploaded MP4.
    await page.getByRole("button", { name: "Preview Selecting and filtering rows" }).click();
    const previewDialog = page.getByRole("dialog", { name: "Selecting and filtering rows" });
    await expectVideoPlays(previewDialog.getByTestId("module-video-preview"));
    await screen(page, "admin-module-preview");
    await previewDialog.getByRole("button", { name: "Close" }).click();

    // Delete the second module after the confirmation.
    await page.getByRole("button", { name: "Delete Joining tables" }).click();
    await answerConfirm(page, "confirm");
    await expectToast(page, "Module deleted successfully");
    await expect(modules).toHaveCount(1);

    // Publish.
    await publish.click();
    await expectToast(
      page,
      "Course published successfully",
      "The course is now available to learners.",
    );
    await expect(page.getByRole("button", { name: "Publish Course" })).toHaveCount(0);
    await expect(page.getByText("Published", { exact: true }).first()).toBeVisible();
    await dismissToast(page);
    await screen(page, "admin-course-detail-published");

    // The list: the card with its parts, and search by title or category.
    await page.getByRole("link", { name: "All courses" }).click();
    await expect(page).toHaveURL(/\/admin\/courses$/);
    const card = courseCard(page, title);
    await expect(card).toBeVisible();
    await expect(card.locator("img")).toHaveAttribute("src", /^\/objects\/uploads\//);
    await expect(card).toContainText("Published");
    await expect(card).toContainText("Database");
    await expect(card).toContainText("6 hours");
    await expect(card).toContainText("1 module");
    // The day the server created it, not today's: a run may cross midnight in between.
    await expect(card).toContainText(
      new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
        new Date(created[0]!.createdAt),
      ),
    );
    const search = page.getByRole("searchbox", { name: "Search courses by title or category" });
    await search.fill(`fundamentals ${stamp}`);
    await expect(page.getByTestId("course-card")).toHaveCount(1);
    await search.fill("DATABASE");
    await expect(card).toBeVisible();
    for (const text of await page.getByTestId("course-card").allTextContents()) {
      expect(text).toContain("Database");
    }
    await search.fill("no course is called this");
    await expect(page.getByText("No courses found matching your search")).toBeVisible();
    await screen(page, "admin-courses-no-match");
    await page.getByRole("button", { name: "Clear search" }).first().click();
    await expect(card).toBeVisible();
    await screen(page, "admin-courses");

    // View leads to the detail page.
    await card.getByRole("link", { name: `View ${title}` }).click();
    await expect(page).toHaveURL(courseUrl);
    await page.goBack();

    // Delete the course after the confirmation.
    await courseCard(page, title)
      .getByRole("button", { name: `Delete ${title}` })
      .click();
    await expect(page.getByRole("alertdialog", { name: "Delete course?" })).toBeVisible();
    await screensAtBothWidths(page, "admin-delete-course-confirm");
    const confirmText = await answerConfirm(page, "confirm");
    await expectToast(page, "Course deleted successfully");
    expect(confirmText).toContain(title);
    await expect(courseCard(page, title)).toHaveCount(0);

    // The deleted course's page says so.
    await page.goto(courseUrl);
    await expect(page.getByRole("heading", { level: 1, name: "Course not found" })).toBeVisible();
  });

  test("a declined confirmation keeps the course; loading and missing states", async ({
    page,
    admin,
    createCourse,
  }) => {
    const course = await createCourse({
      title: `Keep me ${uniqueEmail("k").slice(2, 9)}`,
      modules: 1,
    });
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);

    await page.goto("/admin/courses");
    await courseCard(page, course.title)
      .getByRole("button", { name: `Delete ${course.title}` })
      .click();
    await answerConfirm(page, "cancel");
    await expect(courseCard(page, course.title)).toBeVisible();

    // 'Loading course details...' while the course is on its way.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**/api/courses/${course.id}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/admin/courses/${course.id}`);
    await expect(page.getByText("Loading course details...")).toBeVisible();
    release();
    await expect(page.getByRole("heading", { level: 1, name: course.title })).toBeVisible();
    await page.unrouteAll();

    await page.goto("/admin/courses/no-such-course");
    await expect(page.getByRole("heading", { level: 1, name: "Course not found" })).toBeVisible();
    await screen(page, "admin-course-not-found");

    // A failed deletion says so.
    await page.goto("/admin/courses");
    await page.route(`**/api/courses/${course.id}`, (route) =>
      route.request().method() === "DELETE"
        ? route.fulfill({ status: 500, json: { message: "boom" } })
        : route.continue(),
    );
    await courseCard(page, course.title)
      .getByRole("button", { name: `Delete ${course.title}` })
      .click();
    await answerConfirm(page, "confirm");
    await expectToast(page, "Error", "Failed to delete course");
    await expect(courseCard(page, course.title)).toBeVisible();
  });

  test("upload failures show the spec's toasts", async ({ page, admin }) => {
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto("/admin/courses");
    await page.getByRole("button", { name: "Create Course" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Create Course" });

    await page.route("**/api/objects/upload", (route) =>
      route.fulfill({ status: 500, json: { message: "storage down" } }),
    );
    await uppyInput(dialog).setInputFiles(FIXTURE_FILES.thumbnail);
    await expectToast(page, "Upload failed", "Failed to get upload URL");
    await expect(dialog.getByText("The upload did not finish.")).toBeVisible();
    await page.unrouteAll();

    await page.route("**/api/objects/set-acl", (route) =>
      route.fulfill({ status: 400, json: { message: "nope" } }),
    );
    await uppyInput(dialog).setInputFiles(FIXTURE_FILES.thumbnail);
    await expectToast(page, "Upload failed", "Failed to process uploaded thumbnail");
    await expect(dialog.getByTestId("thumbnail-uploaded")).toHaveCount(0);
    await page.unrouteAll();

    // Uppy refuses a file of the wrong type before anything is sent.
    let asked = false;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/objects/upload")) asked = true;
    });
    await uppyInput(dialog).setInputFiles(FIXTURE_FILES.video);
    await expect(dialog.getByText(/You can only upload/).first()).toBeVisible();
    expect(asked).toBe(false);
  });
});
