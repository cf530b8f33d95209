import { readFileSync } from "node:fs";
import type { LearnerSummary } from "../src/contract";
import { dismissToast, expect, expectToast, signIn, test, uniqueEmail } from "./support/fixtures";
import { screensAtBothWidths } from "./support/screens";

test.describe("Learners import and bulk enrollment (admin)", () => {
  test("import a CSV of learners, download the rejected rows and enroll two learners at once", async ({
    page,
    admin,
    adminApi,
    createCourse,
  }) => {
    const stamp = uniqueEmail("s").slice(2, 10);
    const [onboarding, safety] = await Promise.all(
      ["Onboarding", "Safety First"].map((title) =>
        createCourse({ title: `${title} ${stamp}`, category: "Design", modules: 1, publish: true }),
      ),
    );
    const email = (i: number) => `import-${stamp}-${i}@example.com`;
    const good = Array.from({ length: 17 }, (_, i) => [
      `Learner ${i + 1} ${stamp}`,
      email(i + 1),
      `+1 555 01${String(i).padStart(2, "0")}`,
      i % 2 ? onboarding!.title : "",
    ]);
    const bad = [
      [`Broken Mail ${stamp}`, "not-an-email", "", ""],
      [`Ghost Course ${stamp}`, email(90), "", "No Such Course"],
      [`Learner Again ${stamp}`, email(1), "", ""],
    ];
    const csv = [
      "Email,Name,Phone,Courses",
      ...[
        ...good.slice(0, 8),
        bad[0]!,
        ...good.slice(8, 14),
        bad[1]!,
        ...good.slice(14),
        bad[2]!,
      ].map(([name, mail, phone, courses]) => [mail, name, phone, courses].join(",")),
    ].join("\n");

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);
    await page.goto("/admin/learners");

    // The preview: 17 ready, the 3 bad rows first with their reasons; nothing saved yet.
    await page.getByRole("button", { name: "Import CSV" }).click();
    const dialog = page.getByRole("dialog", { name: "Import learners" });

    // A file a spreadsheet would not read: the line to fix, in words, never csv-parse's own.
    await dialog.getByLabel("CSV file").setInputFiles({
      name: "quoted.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        `name,email\nAda,ada-${stamp}@example.com\nBo "the" Builder,bo@example.com\n`,
      ),
    });
    const unreadable = dialog.getByRole("alert");
    await expect(unreadable).toContainText(
      'The file is not a readable CSV: line 3 has a stray quote (") inside a value.',
    );
    await expect(unreadable).not.toContainText(/csv:|Invalid Opening Quote/);
    await screensAtBothWidths(page, "learner-import-unreadable");

    await dialog.getByLabel("CSV file").setInputFiles({
      name: "new-learners.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csv),
    });
    await expect(dialog.getByTestId("import-preview-summary")).toHaveText(
      "new-learners.csv: 17 learners ready, 3 rows with problems (not imported).",
    );
    const rows = dialog.getByTestId("import-row");
    await expect(rows).toHaveCount(20);
    await expect(rows.nth(0)).toContainText("Enter a valid email address");
    await expect(rows.nth(1)).toContainText('No course is called "No Such Course"');
    await expect(rows.nth(2)).toContainText("This email appears earlier in the file (line 2)");
    await expect(rows.nth(3)).toContainText("Ready");
    const before = await adminApi.get(`/api/users/learners?q=${stamp}`);
    expect((await before.json()) as LearnerSummary[]).toEqual([]);
    await screensAtBothWidths(page, "learner-import-preview");

    // Confirm: a progress bar (the batch is held until it has been seen), then the summary.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/users/learners/import", async (route) => {
      await held;
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Import 17 learners" }).click();
    const progress = dialog.getByTestId("import-progress");
    await expect(progress).toContainText("0 of 17");
    await expect(progress.getByRole("progressbar", { name: "Learners registered" })).toBeVisible();
    release();
    const summary = dialog.getByTestId("import-summary");
    await expect(summary).toBeVisible();
    await expect(summary.getByRole("definition")).toHaveText(["17", "8", "3"]);
    await expect(summary.getByRole("status")).toContainText("17 invitations sent");
    await screensAtBothWidths(page, "learner-import-summary");

    // The rejected rows as a file: the original columns and the reason.
    const downloading = page.waitForEvent("download");
    await summary.getByRole("button", { name: "Download rejected rows" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("rejected-new-learners.csv");
    const file = readFileSync((await download.path())!, "utf8");
    expect(file.replace(/^\uFEFF/, "").split("\r\n")).toEqual([
      "name,email,phone,courses,error",
      `Broken Mail ${stamp},not-an-email,,,Enter a valid email address`,
      `Ghost Course ${stamp},${email(90)},,No Such Course,"No course is called ""No Such Course"""`,
      `Learner Again ${stamp},${email(1)},,,This email appears earlier in the file (line 2)`,
      "",
    ]);
    await summary.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();

    // The imported learners are listed; two of them join a course in one action.
    await page.getByRole("searchbox", { name: "Search learners by name or email" }).fill(stamp);
    await expect(page.getByTestId("learner-card")).toHaveCount(17);
    // Cards off screen are laid out only once scrolled to (content-visibility), and those
    // above a card then take their real height, which can move it out of view again: scroll
    // until it stays in view, so the click lands on the box.
    for (const learner of ["Learner 1", "Learner 3"]) {
      const box = page.getByRole("checkbox", { name: `Select ${learner} ${stamp}`, exact: true });
      await expect(async () => {
        await box.scrollIntoViewIfNeeded();
        await expect(box).toBeInViewport({ timeout: 1_000 });
      }).toPass();
      await box.check();
    }
    await expect(page.getByText("2 of 17 selected")).toBeVisible();
    await page.getByRole("button", { name: "Enroll in course", exact: true }).click();
    const enroll = page.getByRole("dialog", { name: "Enroll in course" });
    await enroll.getByRole("combobox", { name: "Course" }).click();
    await page.getByRole("option", { name: safety!.title }).click();
    await screensAtBothWidths(page, "learner-bulk-enroll");
    await enroll.getByRole("button", { name: "Enroll 2 learners" }).click();
    await expectToast(page, "Learners enrolled", `2 learners enrolled in ${safety!.title}.`);
    await expect(page.getByText("Select all shown")).toBeVisible();

    const after = (await (
      await adminApi.get(`/api/users/learners?q=${stamp}&limit=100`)
    ).json()) as LearnerSummary[];
    const courseTitles = (name: string) =>
      after
        .find((l) => l.name === name)
        ?.courses.map((c) => c.title)
        .sort();
    expect(after).toHaveLength(17);
    expect(courseTitles(`Learner 1 ${stamp}`)).toEqual([safety!.title]);
    expect(courseTitles(`Learner 2 ${stamp}`)).toEqual([onboarding!.title]);
    expect(courseTitles(`Learner 3 ${stamp}`)).toEqual([safety!.title]);
  });
});
