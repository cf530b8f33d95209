import { CATALOGUE_MESSAGES, type Course } from "../src/contract";
import { addCatalogueBody, addCatalogueType, readCatalogue } from "./support/catalogue";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { offerCredit } from "./support/learning";
import { screensAtBothWidths } from "./support/screens";

/** The organisation's credit catalogue in Settings, and a course offering and publishing its credit. */

const REASON =
  "Learners also complete the wound assessment workbook, about two hours of assigned reading.";

test.describe("Credit catalogue", () => {
  test("an administrator names a body and its credit type in Settings, offers it on a course, reviews the types courses named themselves, and publishes with a reason for the credit", async ({
    page,
    admin,
    adminApi,
    createCourse,
  }) => {
    test.slow();
    const stamp = Date.now().toString(36);
    const nursing = `State Board of Nursing ${stamp}`;
    const course = await createCourse({ title: `Wound Care Essentials ${stamp}`, modules: 1 });
    const [both, own] = [
      await createCourse({ title: `Pressure Injuries ${stamp}` }),
      await createCourse({ title: `Ostomy Care ${stamp}` }),
    ];
    // NASBA's CPE: a 50-minute hour, and fields of study that must add up before publishing.
    const accountancy = await addCatalogueBody(adminApi, {
      name: `Board of Accountancy ${stamp}`,
      providerNumber: "CPE-118",
      minutesPerHour: 50,
    });
    await addCatalogueType(adminApi, {
      name: "CPE credits",
      bodyId: accountancy.id,
      profession: "Accounting",
      fieldsOfStudyRequired: true,
    });

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto("/admin/settings");
    const card = page.getByRole("region", { name: "Credit catalogue" });
    await expect(card.getByTestId("catalogue-summary")).toContainText("credit type");
    await screensAtBothWidths(page, "credit-catalogue-settings");
    await card.getByRole("link", { name: "Open the credit catalogue" }).click();
    await expect(page).toHaveURL(/\/admin\/settings\/credit-catalogue$/);
    await expect(page.getByRole("heading", { level: 1, name: "Credit catalogue" })).toBeVisible();
    const hint = page.getByRole("region", { name: "How the catalogue works" });
    await expect(hint).toBeVisible();

    // A body, refused without its name, then added with its provider number.
    await page.getByRole("button", { name: /^Add (accrediting )?body$/ }).click();
    const bodyDialog = page.getByRole("dialog", { name: "Add accrediting body" });
    await bodyDialog.getByRole("button", { name: "Add body" }).click();
    await expect(bodyDialog.getByRole("alert")).toHaveText("Enter the accrediting body");
    await bodyDialog.getByLabel("Name", { exact: true }).fill(nursing);
    await bodyDialog.getByLabel(/Provider number/).fill("NCPD-0042");
    await bodyDialog.getByRole("button", { name: "Add body" }).click();
    await expectToast(page, "Accrediting body added");
    await expect(bodyDialog).toBeHidden();
    await dismissToast(page);
    const bodies = page.getByRole("list", { name: "Accrediting bodies" });
    await expect(bodies.getByTestId("catalogue-body").filter({ hasText: nursing })).toContainText(
      "Provider no. NCPD-0042 · 60-minute credit hour · 0 credit types",
    );
    // A second body of the same name is refused under Name, and the dialog stays open.
    await page.getByRole("button", { name: "Add body" }).click();
    await bodyDialog.getByLabel("Name", { exact: true }).fill(nursing);
    await bodyDialog.getByRole("button", { name: "Add body" }).click();
    await expect(bodyDialog.getByRole("alert")).toHaveText(
      CATALOGUE_MESSAGES.bodyNameTaken(nursing),
    );
    await bodyDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(bodyDialog).toBeHidden();

    // Its credit type, named as the body writes it; the singular follows the plural.
    await page.getByRole("button", { name: "Add credit type" }).click();
    const typeDialog = page.getByRole("dialog", { name: "Add credit type" });
    await typeDialog.getByLabel("Credit name", { exact: true }).fill("contact hours");
    await expect(typeDialog.getByLabel("Name for exactly 1")).toHaveValue("contact hour");
    await expect(typeDialog).toContainText(
      "Certificates print “1 contact hour”, “2 contact hours”.",
    );
    await typeDialog.getByLabel("Accrediting body").selectOption({ label: nursing });
    await typeDialog.getByRole("button", { name: "Add credit type" }).click();
    await expect(typeDialog.getByRole("alert")).toHaveText("Enter the profession");
    await typeDialog.getByLabel("Profession").fill("Nursing");
    await typeDialog
      .getByLabel(/Default designation statement/)
      .fill("This activity is approved for up to 2 contact hours of nursing continuing education.");
    await typeDialog.getByRole("checkbox", { name: "CE Broker" }).check();
    await typeDialog.getByRole("checkbox", { name: "Requires the learner's licence" }).check();
    await typeDialog.evaluate((dialog) => dialog.scrollTo(0, 0));
    await screensAtBothWidths(page, "credit-catalogue-type-dialog");
    await typeDialog.getByRole("button", { name: "Add credit type" }).click();
    await expectToast(page, "Credit type added");
    await expect(typeDialog).toBeHidden();
    await dismissToast(page);
    const catalogueTypes = page.getByRole("list", { name: "Credit types", exact: true });
    const contactHours = catalogueTypes
      .getByTestId("catalogue-type")
      .filter({ hasText: `${nursing} · prints “1 contact hour”` });
    await expect(contactHours).toContainText("Nursing");
    await expect(contactHours).toContainText("not offered yet");
    await expect(contactHours.getByRole("list")).toHaveText(
      /Licence required\s*Reported to CE Broker/,
    );
    const kept = await readCatalogue(adminApi);
    const nursingId = kept.bodies.find((b) => b.name === nursing)!.id;
    const contactHoursId = kept.types.find(
      (t) => t.bodyId === nursingId && t.name === "contact hours",
    )!.id;

    // Two courses name credit by their own words, as an API client may: the catalogue holds
    // those types for review. One course offers both spellings of the same credit.
    const words = (name: string) => ({
      name,
      amount: 1,
      accreditingBody: nursing,
      designationStatement: "",
      claimStep: null,
    });
    await offerCredit(adminApi, both.id, {
      bodies: [{ name: nursing, providerNumber: "NCPD-0042" }],
      types: [
        { catalogueTypeId: contactHoursId, amount: 1, designationStatement: "", claimStep: null },
        words("CNE hours"),
      ],
    });
    await offerCredit(adminApi, own.id, {
      bodies: [{ name: nursing, providerNumber: "NCPD-0042" }],
      types: [words("CNE hours"), words("ACPE contact hours")],
    });
    await page.reload();
    const review = page.getByRole("region", { name: /^Review \d+ credit types?$/ });
    const cne = review
      .getByTestId("catalogue-review-type")
      .filter({ hasText: `CNE hours — ${nursing}` });
    await expect(cne).toContainText("Offered by 2 courses · No profession yet");
    const acpe = review
      .getByTestId("catalogue-review-type")
      .filter({ hasText: `ACPE contact hours — ${nursing}` });
    await expect(acpe).toContainText("Offered by 1 course");
    await screensAtBothWidths(page, "credit-catalogue-review");

    // Merging is refused while a course offers both types, with the server's reason.
    await cne.getByRole("button", { name: "Merge into…" }).click();
    const merge = page.getByRole("dialog", { name: "Merge CNE hours" });
    await merge.getByRole("button", { name: "Merge", exact: true }).click();
    await expect(merge.getByRole("alert")).toHaveText("Choose the credit type to merge into");
    await merge.getByLabel("Merge into").selectOption({ label: `contact hours — ${nursing}` });
    await merge.getByRole("button", { name: "Merge", exact: true }).click();
    await expect(merge.getByTestId("form-alert")).toHaveText(
      "1 course offers both credit types: remove one of them from that course first.",
    );
    await screensAtBothWidths(page, "credit-catalogue-merge-refused");
    await merge.getByRole("button", { name: "Cancel" }).click();
    await expect(merge).toBeHidden();

    await acpe.getByRole("button", { name: "Confirm" }).click();
    await expectToast(page, "Credit type confirmed", `ACPE contact hours — ${nursing}`);
    await expect(acpe).toBeHidden();
    await dismissToast(page);

    // The course offering both drops the one spelled its own way, in its credit editor.
    await page.goto(`/admin/courses/${both.id}`);
    const credit = page
      .getByRole("region", { name: "Accreditation" })
      .getByRole("region", { name: "Credit", exact: true });
    await credit.getByRole("button", { name: "Edit credit types" }).click();
    const types = page.getByRole("dialog", { name: "Credit types" });
    await types.getByRole("button", { name: "Remove credit type CNE hours" }).click();
    await types.getByRole("button", { name: "Save credit types" }).click();
    await expectToast(page, "Credit types saved");
    await expect(types).toBeHidden();
    await dismissToast(page);

    // Now the merge goes through: the other course offers the catalogue's type instead.
    await page.goto("/admin/settings/credit-catalogue");
    await cne.getByRole("button", { name: "Merge into…" }).click();
    await merge.getByLabel("Merge into").selectOption({ label: `contact hours — ${nursing}` });
    await merge.getByRole("button", { name: "Merge", exact: true }).click();
    await expectToast(page, "Credit types merged", `CNE hours is now contact hours — ${nursing}.`);
    await expect(merge).toBeHidden();
    await expect(cne).toBeHidden();
    await dismissToast(page);
    const merged = (await (await adminApi.get(`/api/courses/${own.id}`)).json()) as Course;
    expect(merged.creditTypes.map((t) => [t.name, t.catalogueTypeId])).toEqual([
      ["contact hours", contactHoursId],
      ["ACPE contact hours", expect.any(String)],
    ]);
    await expect(contactHours).toContainText("offered by 2 courses");

    // A body its types name, and a type courses offer, stay: the reason shows in the dialog.
    await bodies.getByRole("button", { name: `Remove ${nursing}` }).click();
    const removeBody = page.getByRole("dialog", { name: `Remove ${nursing}?` });
    await removeBody.getByRole("button", { name: "Remove", exact: true }).click();
    await expect(removeBody.getByTestId("form-alert")).toHaveText(
      "2 credit types name this body: remove or change them first.",
    );
    await removeBody.getByRole("button", { name: "Cancel" }).click();
    await contactHours.getByRole("button", { name: "Remove contact hours" }).click();
    const removeType = page.getByRole("dialog", { name: "Remove contact hours?" });
    await removeType.getByRole("button", { name: "Remove", exact: true }).click();
    await expect(removeType.getByTestId("form-alert")).toHaveText(
      "2 courses offer this credit type: merge it into another instead.",
    );
    await removeType.getByRole("button", { name: "Cancel" }).click();
    await screensAtBothWidths(page, "credit-catalogue");
    // The first-use hint goes once read, and stays gone.
    await hint.getByRole("button", { name: "Got it" }).click();
    await expect(hint).toBeHidden();
    await page.reload();
    await expect(catalogueTypes).toBeVisible();
    await expect(hint).toBeHidden();

    // The course offers the nursing credit and the CPE credit from the catalogue.
    await page.goto(`/admin/courses/${course.id}`);
    await credit.getByRole("button", { name: "Edit credit types" }).click();
    await expect(types.getByRole("link", { name: "Manage the credit catalogue" })).toBeVisible();
    const rows = types.getByTestId("credit-type-row");
    await types.getByRole("button", { name: "Add credit type" }).click();
    await rows
      .nth(0)
      .getByLabel("Credit type", { exact: true })
      .selectOption({ label: `contact hours — ${nursing}` });
    await expect(rows.nth(0).getByLabel(/Designation statement/)).toHaveValue(
      "This activity is approved for up to 2 contact hours of nursing continuing education.",
    );
    await expect(rows.nth(0)).toContainText(
      `${nursing} · Provider no. NCPD-0042 · Nursing · Licence required`,
    );
    await rows.nth(0).getByLabel("Amount").fill("2");
    await types.getByRole("button", { name: "Add credit type" }).click();
    await rows
      .nth(1)
      .getByLabel("Credit type", { exact: true })
      .selectOption({ label: `CPE credits — ${accountancy.name}` });
    await rows.nth(1).getByLabel("Amount").fill("1");
    await expect(rows.nth(0)).toContainText("prints “2 contact hours”");
    await expect(rows.nth(1)).toContainText("prints “1 CPE credit”");
    await types.evaluate((dialog) => dialog.scrollTo(0, 0));
    await screensAtBothWidths(page, "credit-catalogue-course-credit-dialog");
    await types.getByRole("button", { name: "Save credit types" }).click();
    await expectToast(page, "Credit types saved");
    await expect(types).toBeHidden();
    await dismissToast(page);

    // CPE credit whose fields of study do not add up blocks publishing, and says why.
    const publish = page.getByRole("button", { name: "Publish Course" });
    const blocked =
      "The fields of study add up to nothing, but the course offers 1 CPE credit: make them add up under Credit settings.";
    await expect(publish).toBeDisabled();
    await expect(publish).toHaveAccessibleDescription(`Fix before publishing: ${blocked}`);
    await expect(
      page.getByTestId("course-publish-checks").locator('[data-severity="block"]'),
    ).toHaveText(`Fix before publishing: ${blocked}`);
    await screensAtBothWidths(page, "credit-catalogue-publish-blocked");
    await credit.getByRole("button", { name: "Edit credit types" }).click();
    await types.getByRole("button", { name: "Remove credit type CPE credits" }).click();
    await types.getByRole("button", { name: "Save credit types" }).click();
    await expectToast(page, "Credit types saved");
    await expect(types).toBeHidden();
    await dismissToast(page);

    // Two contact hours from a few seconds of video: publishing asks for the reason.
    await expect(publish).toBeEnabled();
    await expect(
      page.getByTestId("course-publish-checks").locator('[data-key="credit-length"]'),
    ).toContainText("Confirm before publishing: 2 contact hours is more than the content supports");
    await publish.click();
    const confirm = page.getByRole("dialog", {
      name: "Publish with more credit than the content supports?",
    });
    await expect(confirm).toContainText("2 contact hours is more than the content supports");
    await confirm.getByRole("button", { name: "Publish anyway" }).click();
    await expect(confirm.getByRole("alert")).toHaveText(
      "Give the reason the credit exceeds the content's length",
    );
    await screensAtBothWidths(page, "credit-catalogue-publish-reason");
    await confirm.getByLabel("Reason for the credit").fill(REASON);
    await confirm.getByRole("button", { name: "Publish anyway" }).click();
    await expectToast(page, "Course published successfully");
    await expect(publish).toBeHidden();
    await dismissToast(page);

    // The reason is kept on the audit trail.
    await page.goto(`/admin/audit?courseId=${course.id}&type=course.published`);
    await expect(page.getByTestId("audit-event")).toContainText(
      `Published the course with more credit than its content's length supports: “${REASON}”`,
    );
  });
});
