import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import {
  type ActivityBody,
  type CreditSettingsBody,
  DEFAULT_ACTIVITY,
  FORM_STEPS,
  MESSAGES,
  stepFirstMessage,
} from "../src/contract";
import { catalogueCredit } from "./support/catalogue";
import { dismissToast, expect, expectToast, fromAddress, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll, offerCredit } from "./support/learning";
import { screensAtBothWidths } from "./support/screens";

/**
 * A form step of completion, from both sides: the administrator asks for the commitment to
 * change, a learner answers it between the modules and the attestation, and the provider's
 * download holds the answer with the learner's name.
 */

const STATEMENT = "I certify that I completed this activity myself.";
const COMMITMENT = FORM_STEPS.commitment;
const CHANGE = "Recheck blood pressure two weeks after every change of dose.";

/** A downloaded CSV as records keyed by its header row (the BOM for spreadsheets dropped). */
const csvRecords = (path: string) =>
  parse(readFileSync(path), { bom: true, columns: true }) as Record<string, string>[];

test.describe("Form steps", () => {
  test("an administrator asks for a commitment to change; a learner answers it after the modules, attests and gets the certificate, and the answers download names them", async ({
    page,
    browser,
    admin,
    adminApi,
    createLearner,
  }) => {
    test.slow();
    const course = await createPublishedCourse(adminApi, {
      title: `Hypertension Follow-up ${Date.now().toString(36)}`,
      category: "Design",
      duration: 1,
      modules: [{ title: "Targets and titration", duration: 30 }],
    });
    const acpe = await catalogueCredit(
      adminApi,
      { name: "Accreditation Council for Pharmacy Education", providerNumber: "ACPE-0204" },
      { name: "ACPE contact hours", singularName: "ACPE contact hour", profession: "Pharmacy" },
    );
    await offerCredit(adminApi, course.id, {
      bodies: [],
      types: [{ catalogueTypeId: acpe.id, amount: 1, designationStatement: "", claimStep: null }],
    });
    const sponsor: CreditSettingsBody = {
      sponsorName: "Northwind CE",
      sponsorAddress: "1 Main Street, Springfield",
      deliveryMethod: "Home study",
      fieldsOfStudy: [],
      officialName: "Dana Lee",
      officialTitle: "Director of Education",
    };
    const settings = await adminApi.put(`/api/courses/${course.id}/credit-settings`, {
      data: sponsor,
    });
    expect(settings.status(), await settings.text()).toBe(200);
    const activity: ActivityBody = {
      ...DEFAULT_ACTIVITY,
      attestationRequired: true,
      attestationText: STATEMENT,
    };
    const saved = await adminApi.put(`/api/courses/${course.id}/activity`, { data: activity });
    expect(saved.status(), await saved.text()).toBe(200);

    // The administrator turns the step on from the course's Accreditation card.
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto(`/admin/courses/${course.id}`);
    const accreditation = page.getByRole("region", { name: "Accreditation" });
    const summary = accreditation.getByTestId("commitment-summary");
    await expect(summary).toHaveText(
      "1 rating item and 1 text item; not asked of learners (turn it on in Edit commitment to change).",
    );
    await accreditation.getByRole("button", { name: "Edit commitment to change" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit commitment to change" });
    await expect(dialog).toContainText(COMMITMENT.adminHint);
    const rows = dialog.getByTestId("commitment-item-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByLabel("Question")).toHaveValue(COMMITMENT.defaultItems[0].text);
    // From the keyboard: the setting is a plain checkbox, ticked with Space.
    const ask = dialog.getByRole("checkbox", { name: /^Learners must complete this step/ });
    await expect(ask).not.toBeChecked();
    await ask.focus();
    await page.keyboard.press("Space");
    await expect(ask).toBeChecked();
    await screensAtBothWidths(page, "form-step-admin-dialog");
    await dialog.getByRole("button", { name: "Save commitment to change" }).click();
    await expectToast(page, "Commitment to change saved");
    await expect(dialog).toBeHidden();
    // Closed by saving, the dialog gives the focus back to its button.
    await expect(
      accreditation.getByRole("button", { name: "Edit commitment to change" }),
    ).toBeFocused();
    await dismissToast(page);
    await expect(summary).toHaveText(
      "1 rating item and 1 text item; learners answer it before the certificate.",
    );
    // Asked for now, it joins the course's steps, in the order learners meet them.
    await expect(
      accreditation.getByRole("list", { name: "Steps learners complete" }).getByRole("listitem"),
    ).toHaveText([
      "Acknowledgement: off",
      "Evaluation: off",
      "Commitment to change: required",
      "Attestation: required",
    ]);
    await screensAtBothWidths(page, "form-step-admin-course");

    // A learner, in a browser of their own, goes through the course to the step.
    const learner = await createLearner({ name: "Rowan Pharmacist" });
    await enroll(adminApi, learner.id, course.id);
    const info = test.info();
    const learnerContext = await browser.newContext({
      locale: "en-US",
      timezoneId: "UTC",
      reducedMotion: "reduce",
      extraHTTPHeaders: fromAddress(info.project.name, ...info.titlePath, "learner browser"),
    });
    const learnerPage = await learnerContext.newPage();
    await signIn(learnerPage, learner);
    await expect(learnerPage).toHaveURL(/\/learner$/);

    // The step's address with a key no step has is a page not found.
    await learnerPage.goto(`/courses/${course.id}/steps/feedback`);
    await expect(
      learnerPage.getByRole("heading", { level: 1, name: MESSAGES.pageNotFound }),
    ).toBeVisible();

    // Before the modules, the step says what comes first. The page's reads may answer in any
    // order: here the form's answer arrives before the activity's and the steps'.
    const stepAddress = `/api/courses/${course.id}/steps/commitment`;
    const formRead = learnerPage.waitForEvent(
      "requestfinished",
      (request) => request.method() === "GET" && request.url().endsWith(stepAddress),
    );
    const others = new RegExp(`/api/courses/${course.id}/(activity|completion)$`);
    await learnerPage.route(others, async (route) => {
      await formRead;
      await route.continue();
    });
    await learnerPage.goto(`/courses/${course.id}/steps/commitment`);
    await expect(learnerPage.getByTestId("step-first")).toHaveText(stepFirstMessage("modules"));
    await learnerPage.unroute(others);

    await learnerPage.goto(`/course/${course.id}`);
    const checklist = learnerPage.getByTestId("completion-checklist");
    await expect(checklist.getByTestId("completion-step")).toHaveText([
      /Modules/,
      /Commitment to change/,
      /Attestation/,
      /Certificate/,
    ]);
    await learnerPage.getByRole("button", { name: "Mark as Complete" }).click();
    await expectToast(learnerPage, "Progress updated");
    // The module done: the checklist takes the focus and leads to the commitment.
    await expect(checklist).toBeFocused();
    await dismissToast(learnerPage);
    await checklist.getByRole("link", { name: COMMITMENT.action }).click();

    await expect(learnerPage).toHaveURL(new RegExp(`/courses/${course.id}/steps/commitment$`));
    await expect(
      learnerPage.getByRole("heading", { level: 1, name: "Commitment to change" }),
    ).toBeVisible();
    await expect(learnerPage.getByText(COMMITMENT.intro)).toBeVisible();
    await expect(learnerPage).toHaveTitle(new RegExp(`^Commitment to change · ${course.title}`));
    const form = learnerPage.getByRole("form", { name: "Commitment to change" });
    // Sent empty, each required item says what it needs, in words.
    await form.getByRole("button", { name: COMMITMENT.submit }).click();
    await expect(form.getByText("Write an answer")).toBeVisible();
    await expect(form.getByText("Choose a rating")).toBeVisible();
    await screensAtBothWidths(learnerPage, "form-step-unanswered");

    const change = form.getByRole("textbox", { name: /What will you change in your practice/ });
    await change.fill(CHANGE);
    await expect(form.getByText(`${CHANGE.length} / 2000 characters`)).toBeVisible();
    await expect(form.getByText("Write an answer")).toHaveCount(0);
    await form
      .getByRole("group", { name: /I am confident I can make this change/ })
      .getByRole("radio", { name: /^4\s*Agree$/ })
      .check();
    await screensAtBothWidths(learnerPage, "form-step-answered");
    await form.getByRole("button", { name: COMMITMENT.submit }).click();

    // The thanks take the focus; the learner reads back what they sent.
    const done = learnerPage.getByTestId("form-step-done");
    await expect(done).toContainText(COMMITMENT.thanks);
    await expect(done).toBeFocused();
    await expect(form).toHaveCount(0);
    const given = learnerPage.getByTestId("given-answer");
    await expect(given).toHaveText([
      `1. ${COMMITMENT.defaultItems[0].text}${CHANGE}`,
      `2. ${COMMITMENT.defaultItems[1].text}4Agree`,
    ]);
    await expect(checklist.locator('[data-step="commitment"]')).toHaveAttribute(
      "data-state",
      "done",
    );
    await screensAtBothWidths(learnerPage, "form-step-done");

    // Read again later, the page still shows the answers, and the step cannot be sent twice.
    await learnerPage.reload();
    await expect(done).toContainText(COMMITMENT.thanks);
    await expect(done).toContainText(/Answered on \w+ \d+, \d{4}\./);
    await expect(given).toHaveCount(2);
    const again = await learnerPage.request.post(`/api/courses/${course.id}/steps/commitment`, {
      data: { answers: [{ itemId: "change", value: "Another change." }] },
    });
    expect(again.status()).toBe(409);

    // The next step: the attestation, then the certificate.
    await checklist.getByRole("link", { name: "Attest and claim credit" }).click();
    await expect(learnerPage.getByTestId("attestation-statement")).toHaveText(STATEMENT);
    await learnerPage.getByRole("checkbox", { name: "I affirm this statement" }).check();
    await learnerPage.getByRole("button", { name: "Attest and claim credit" }).click();
    await expect(learnerPage.getByTestId("attested-summary")).toContainText(
      "1 ACPE contact hour claimed",
    );
    await expect(checklist.getByTestId("completion-step").last()).toHaveAttribute(
      "data-state",
      "done",
    );
    const certificate = learnerPage.waitForEvent("download");
    await learnerPage.getByRole("button", { name: /^Download HTML/ }).click();
    const html = readFileSync((await (await certificate).path())!, "utf8");
    expect(html).toContain("Rowan Pharmacist");
    expect(html).toContain("1 ACPE contact hour");
    await learnerContext.close();

    // The provider's follow-up list: the learner's answers under their name.
    await page.reload();
    const download = page.waitForEvent("download");
    await accreditation
      .getByRole("region", { name: "Commitment to change" })
      .getByRole("link", { name: "Download answers" })
      .click();
    const csv = await download;
    expect(csv.suggestedFilename()).toMatch(/^commitment.*\.csv$/);
    const records = csvRecords((await csv.path())!);
    expect(Object.keys(records[0] ?? {})).toEqual([
      "Learner",
      "Email",
      "Answered",
      COMMITMENT.defaultItems[0].text,
      COMMITMENT.defaultItems[1].text,
    ]);
    expect(records).toEqual([
      {
        Learner: "Rowan Pharmacist",
        Email: learner.email,
        Answered: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        [COMMITMENT.defaultItems[0].text]: CHANGE,
        [COMMITMENT.defaultItems[1].text]: "4 (Agree)",
      },
    ]);
  });
});
