import type { Locator } from "@playwright/test";
import { dismissToast, expect, expectToast, signIn, test, uniqueEmail } from "./support/fixtures";
import { screen, screensAtBothWidths } from "./support/screens";

/** The peers' packages, read where they are (outside content, never copied in). */
const GOLF = "../shared/peers/scorm-golf";
const CMI5 = "../shared/peers/cmi5-packages";

/** The hidden file input of the Uppy dashboard inside `scope`. */
function uppyInput(scope: Locator) {
  return scope.locator("input.uppy-Dashboard-input[type=file]").first();
}

test.describe("Package modules (admin)", () => {
  test("adds SCORM and cmi5 packages as modules, says why a broken one is refused, and edits one", async ({
    page,
    admin,
    createCourse,
  }) => {
    test.slow();
    const course = await createCourse({ title: `Golf ${uniqueEmail("x").slice(2, 10)}` });
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await dismissToast(page);
    await page.goto(`/admin/courses/${course.id}`);
    await expect(page.getByRole("heading", { level: 1, name: course.title })).toBeVisible();

    // A SCORM 1.2 package: chosen as the content, uploaded, checked when the module is saved.
    await page.getByRole("button", { name: "Add Module" }).first().click();
    let dialog = page.getByRole("dialog", { name: "Add Module" });
    await dialog.getByLabel("Module title").fill("Golf explained");
    await dialog.getByLabel("Duration (minutes)").fill("15");
    await dialog.getByLabel("Content").selectOption("scorm");
    await dialog.getByRole("button", { name: "Add Module" }).click();
    await expectToast(page, "Package required");
    await uppyInput(dialog).setInputFiles(`${GOLF}/singlesco_scorm12.zip`);
    await expectToast(page, "Package uploaded");
    await expect(dialog.getByTestId("package-uploaded")).toContainText("singlesco_scorm12.zip");
    await screen(page, "admin-module-dialog-package");
    const added = page.waitForRequest((r) => r.url().endsWith("/modules") && r.method() === "POST");
    await dialog.getByRole("button", { name: "Add Module" }).click();
    expect((await added).postDataJSON()).toMatchObject({
      kind: "scorm",
      packagePath: expect.stringMatching(/^\/objects\/uploads\//),
    });
    await expectToast(page, "Module added successfully");
    await expect(dialog).toBeHidden();
    const modules = page.getByTestId("module-item");
    await expect(modules.nth(0).getByTestId("module-package")).toContainText(
      "SCORM 1.2 package, 1 item",
    );
    // Its preview opens the package itself, isolated (e2e/package-isolation.spec.ts).
    await expect(page.getByRole("button", { name: "Preview Golf explained" })).toBeVisible();

    // A package whose manifest sits inside a folder: refused, with what to do.
    await page.getByRole("button", { name: "Add Module" }).first().click();
    dialog = page.getByRole("dialog", { name: "Add Module" });
    await dialog.getByLabel("Module title").fill("Broken");
    await dialog.getByLabel("Duration (minutes)").fill("5");
    await dialog.getByLabel("Content").selectOption("scorm");
    await uppyInput(dialog).setInputFiles(`${GOLF}/badscorm.zip`);
    await expectToast(page, "Package uploaded");
    await dialog.getByRole("button", { name: "Add Module" }).click();
    await expectToast(
      page,
      "Module not saved",
      'The package\'s imsmanifest.xml is inside the folder "badscorm/" instead of at its top level. Zip the contents of that folder, not the folder itself, and upload the new .zip.',
    );
    // The refused upload is gone with it: the dialog asks for another.
    await expect(dialog.getByTestId("package-uploader")).toBeVisible();
    await screen(page, "admin-module-dialog-package-refused");
    // A cmi5 course with several AUs, in the same dialog.
    await dialog.getByLabel("Module title").fill("Geology");
    await dialog.getByLabel("Content").selectOption("cmi5");
    await uppyInput(dialog).setInputFiles(`${CMI5}/multi_au_framed.zip`);
    await expectToast(page, "Package uploaded");
    await dialog.getByRole("button", { name: "Add Module" }).click();
    await expectToast(page, "Module added successfully");
    await expect(modules).toHaveCount(2);
    await expect(modules.nth(1).getByTestId("module-package")).toContainText(
      "cmi5 package, 8 items",
    );
    // Captions belong to videos: no captions warning or button for a package module.
    await expect(page.getByTestId("missing-captions-notice")).toHaveCount(0);
    await expect(page.getByTestId("no-captions-badge")).toHaveCount(0);
    await dismissToast(page);
    await screensAtBothWidths(page, "admin-course-package-modules");

    // Editing a package module keeps its package unless another is uploaded.
    await page.getByRole("button", { name: "Edit Golf explained" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Module" });
    await expect(edit.getByLabel("Content")).toHaveValue("scorm");
    await expect(edit.getByTestId("package-uploaded")).toContainText(
      "Golf Explained - CP Single SCO (SCORM 1.2)",
    );
    await edit.getByLabel("Module title").fill("Golf, explained");
    const saved = page.waitForRequest((r) => r.method() === "PUT" && r.url().includes("/modules/"));
    await edit.getByRole("button", { name: "Save Changes" }).click();
    const body = (await saved).postDataJSON();
    expect(body).toMatchObject({ kind: "scorm", title: "Golf, explained" });
    expect(body).not.toHaveProperty("packagePath");
    await expectToast(page, "Module updated successfully");
    await expect(modules.nth(0)).toContainText("Golf, explained");
    await expect(modules.nth(0).getByTestId("module-package")).toContainText(
      "SCORM 1.2 package, 1 item",
    );
  });
});
