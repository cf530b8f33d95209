import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  type ActivityBody,
  type Certificate,
  type CreditSettingsBody,
  DEFAULT_ACTIVITY,
  formatDocumentDate,
} from "../src/contract";
import { pdfText } from "../src/server/testing/pdf-text";
import { catalogueCredit } from "./support/catalogue";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll, offerCredit, type SeededCourse } from "./support/learning";
import { screensAtBothWidths } from "./support/screens";

/**
 * The learner's side of an accredited provider's credit, one journey per profession: a nurse,
 * an accountant and a physician each take a course with catalogue credit to its certificate,
 * and read their credit (never the spec's coding category) on every page and PDF they keep.
 */

const STATEMENT =
  "I certify that I completed this activity myself and claim only the credit that matches my participation.";

/** The provider's catalogue: each body as it accredits, each credit as its body writes it. */
const NURSING = {
  body: { name: "American Nurses Credentialing Center", providerNumber: "P-0421" },
  type: {
    name: "contact hours",
    singularName: "contact hour",
    profession: "Nursing",
    accreditationStatement: "Northwind CE is accredited by the ANCC.",
    licenceRequired: true,
  },
};
const ACCOUNTING = {
  body: {
    name: "National Association of State Boards of Accountancy",
    providerNumber: "112233",
    minutesPerHour: 50 as const,
  },
  type: {
    name: "CPE credits",
    singularName: "CPE credit",
    profession: "Accounting",
    accreditationStatement: "Northwind CE is registered with NASBA as a CPE sponsor.",
    fieldsOfStudyRequired: true,
  },
};
const MEDICINE = {
  body: {
    name: "Accreditation Council for Continuing Medical Education",
    providerNumber: "ACCME-7781",
  },
  type: {
    name: "AMA PRA Category 1 Credits™",
    singularName: "AMA PRA Category 1 Credit™",
    profession: "Physicians",
    accreditationStatement: "Northwind CE is accredited by the ACCME.",
  },
};

const SPONSOR: CreditSettingsBody = {
  sponsorName: "Northwind CE",
  sponsorAddress: "1 Main Street, Springfield",
  deliveryMethod: "QAS Self-Study",
  fieldsOfStudy: [],
  officialName: "Dana Lee",
  officialTitle: "Director of Education",
};

test.describe("Credit personas", () => {
  test("a nurse reads and acknowledges the activity, evaluates, attests and claims 1.75 of 2 contact hours giving her licence there once, finds it in her profile, and keeps a certificate and transcript in contact hours", async ({
    page,
    adminApi,
    createLearner,
  }) => {
    test.slow();
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Insurance Ethics ${stamp}`,
      category: "Design",
      duration: 2,
      modules: [
        { title: "Duties to the client", duration: 30 },
        { title: "Suitability", duration: 30 },
      ],
    });
    // The fields of study first: the published course offers NASBA's credit only once they
    // add up to it.
    const credit: CreditSettingsBody = {
      ...SPONSOR,
      fieldsOfStudy: [{ field: "Ethics", credits: 2 }],
    };
    const creditSaved = await adminApi.put(`/api/courses/${course.id}/credit-settings`, {
      data: credit,
    });
    expect(creditSaved.status(), await creditSaved.text()).toBe(200);
    // Two catalogue types, each claimed by its profession, each with its body's provider number.
    const ancc = await catalogueCredit(adminApi, NURSING.body, NURSING.type);
    const nasba = await catalogueCredit(adminApi, ACCOUNTING.body, ACCOUNTING.type);
    await offerCredit(adminApi, course.id, {
      bodies: [],
      types: [
        {
          catalogueTypeId: ancc.id,
          amount: 2,
          designationStatement: "Awarded up to 2 ANCC contact hours.",
          claimStep: 0.25,
        },
        {
          catalogueTypeId: nasba.id,
          amount: 2,
          designationStatement: "Recommended for 2 CPE credits.",
          claimStep: null,
        },
      ],
    });
    const activity: ActivityBody = {
      ...DEFAULT_ACTIVITY,
      objectives: ["Describe a producer's duties to the client."],
      faculty: [{ name: "Jordan Pike", role: "Author", disclosure: "Nothing to disclose." }],
      releaseDate: "2026-01-15",
      acknowledgementRequired: true,
      evaluationRequired: true,
      attestationRequired: true,
      attestationText: STATEMENT,
    };
    const saved = await adminApi.put(`/api/courses/${course.id}/activity`, { data: activity });
    expect(saved.status(), await saved.text()).toBe(200);
    const png = readFileSync("test-fixtures/sample-signature.png").toString("base64");
    const signature = await adminApi.put(`/api/courses/${course.id}/signature`, {
      data: { dataUrl: `data:image/png;base64,${png}` },
    });
    expect(signature.status(), await signature.text()).toBe(200);
    const learner = await createLearner({ name: "Casey Claimant" });
    await enroll(adminApi, learner.id, course.id);

    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    // The course card leads to the first step; a course without the claim keeps Start.
    const card = page
      .getByTestId("course-card")
      .filter({ has: page.getByRole("heading", { name: course.title }) });
    await expect(card.getByRole("link", { name: /^Next: About this activity/ })).toBeVisible();

    // Module 1 stays locked until the page is acknowledged.
    await page.goto(`/course/${course.id}`);
    await expect(page.getByTestId("acknowledge-first")).toBeVisible();
    await expect(page.getByRole("button", { name: "Mark as Complete" })).toHaveCount(0);
    await expect(page.getByTestId("module-item").first()).toHaveAttribute("data-state", "locked");
    const checklist = page.getByTestId("completion-checklist");
    await expect(checklist.getByTestId("completion-step")).toHaveText([
      /About this activity/,
      /Modules/,
      /Evaluation/,
      /Attestation/,
      /Certificate/,
    ]);
    await screensAtBothWidths(page, "credit-player-locked");

    await page.getByRole("link", { name: "Read About this activity first" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "About this activity" }),
    ).toBeVisible();
    await expect(page.getByText("Describe a producer's duties to the client.")).toBeVisible();
    await expect(page.getByText("Jordan Pike")).toBeVisible();
    await expect(page.getByText("January 15, 2026")).toBeVisible();
    // The licence the credit asks for is said up front, not only after attesting.
    await expect(page.getByTestId("licence-notice")).toContainText("Professional licence required");
    // The sentence reads whatever the credit's name: "Claiming contact hours asks for…".
    await expect(page.getByTestId("licence-notice")).toContainText(
      "Claiming contact hours asks for your professional licence",
    );
    await screensAtBothWidths(page, "credit-about");
    await page.getByRole("button", { name: "I have read this information" }).click();
    await expect(page.getByTestId("acknowledged")).toContainText("Acknowledged on");
    await expect(page.getByRole("link", { name: "Start the course" })).toBeFocused();
    await page.getByRole("link", { name: "Start the course" }).click();

    for (const [i] of course.modules.entries()) {
      await page.getByRole("button", { name: "Mark as Complete" }).click();
      await expectToast(page, "Progress updated");
      if (i < course.modules.length - 1) {
        await dismissToast(page);
        await page.getByRole("button", { name: "Next", exact: true }).click();
      }
    }
    // Every module done: the checklist takes the focus and leads to the evaluation.
    await expect(checklist).toBeFocused();
    await checklist.getByRole("link", { name: "Complete the evaluation" }).click();

    await expect(page.getByRole("heading", { level: 1, name: "Evaluation" })).toBeVisible();
    const ratings = page.getByRole("group");
    // From the keyboard: tabbing through a rating without choosing one, then sending with
    // Enter, asks for the rating in words.
    await ratings.nth(0).getByRole("radio").first().focus();
    await page.keyboard.press("Tab");
    await page.getByRole("button", { name: "Submit evaluation" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByText("Choose a rating")).toHaveCount(4);
    await expect(page.getByText(/Invalid input|expected string|received null/)).toHaveCount(0);
    await screensAtBothWidths(page, "credit-evaluation-unanswered");
    for (let i = 0; i < 4; i++) {
      await ratings
        .nth(i)
        .getByRole("radio", { name: /Agree$/ })
        .first()
        .check();
    }
    await page.getByRole("textbox", { name: /Comments and suggestions/ }).fill("Clear and short.");
    await expect(page.getByText("16 / 2000 characters")).toBeVisible();
    await screensAtBothWidths(page, "credit-evaluation");
    await page.getByRole("button", { name: "Submit evaluation" }).click();
    await expect(page.getByTestId("evaluation-done")).toContainText("Thank you for your feedback");

    await page.getByRole("link", { name: "Attest and claim credit" }).click();
    await expect(page.getByTestId("attestation-statement")).toHaveText(STATEMENT);
    // Nothing is claimed yet, so nothing of hers is asked.
    const details = page.getByTestId("attestation-identifiers");
    await expect(details).toHaveCount(0);
    await page.getByRole("button", { name: "Attest and claim credit" }).click();
    await expect(page.getByText("Tick the box to affirm the statement")).toBeVisible();
    await page.getByRole("checkbox", { name: "I affirm this statement" }).check();
    // Two types on offer: the nurse claims hers, and nothing of the other.
    await expect(page.getByTestId("claim-type")).toHaveText([
      /^2 contact hoursAmerican Nurses Credentialing Center/,
      /^2 CPE creditsNational Association of State Boards of Accountancy/,
    ]);
    await page.getByRole("button", { name: "Attest and claim credit" }).click();
    await expect(page.getByText("Choose the credit you claim.")).toBeVisible();
    await page.getByRole("checkbox", { name: /^2 contact hours/ }).check();
    await expect(page.getByText("Choose the credit you claim.")).toHaveCount(0);
    await page.getByRole("combobox", { name: "Amount claimed (up to 2 contact hours)" }).click();
    await page.getByRole("option", { name: "1.75 contact hours" }).click();
    // Her contact hours require her licence, which her profile lacks: it is asked for here.
    await expect(details).toContainText("Claiming contact hours asks for your licence.");
    await expect(details).toContainText("Your profile lacks what is asked below.");
    await details.getByLabel("Licence type or board").fill("RN");
    await details.getByLabel("Licence number").fill("IL-778899");
    await page.getByRole("button", { name: "Attest and claim credit" }).click();
    // A number needs the state that issued it, said before anything is sent.
    await expect(
      details.getByText("Enter the licence number with the state that issued it"),
    ).toBeVisible();
    await expect(details.getByLabel("State", { exact: true })).toBeFocused();
    await details.getByLabel("State", { exact: true }).selectOption("IL");
    await screensAtBothWidths(page, "credit-attestation");
    await page.getByRole("button", { name: "Attest and claim credit" }).click();
    await expect(page.getByTestId("attested-summary")).toContainText("1.75 contact hours claimed");

    // Given with the attestation, the licence is never asked for again: the certificate is
    // issued at once.
    await expect(checklist.getByTestId("completion-step").last()).toHaveAttribute(
      "data-state",
      "done",
    );
    await expect(page.getByRole("link", { name: "Add your licence" })).toHaveCount(0);
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: /^Download HTML/ }).click();
    const html = readFileSync((await (await download).path())!, "utf8");
    expect(html).toContain("1.75 contact hours");
    expect(html).toContain("P-0421");
    expect(html).not.toContain("CPE credit");
    expect(html).toContain("<dd>Ethics: 1.75</dd>");
    expect(html).toContain("<dd>Northwind CE</dd>");
    expect(html).toContain("<dd>1 Main Street, Springfield</dd>");
    expect(html).toContain("RN IL-778899 (IL)");
    expect(html).toContain('alt="Signature of Dana Lee"');
    expect(html).toContain("Dana Lee");
    expect(html).toContain("Director of Education");

    const code = /Certificate no\. ([0-9A-Z-]+)/.exec(html)?.[1]?.replace(/-/g, "");
    await page.goto(`/verify/${code}`);
    const claim = page.getByTestId("verification-credit");
    await expect(claim).toContainText("QAS Self-Study");
    // Anyone holding the code sees the licence masked to its last characters.
    await expect(claim).toContainText("RN •••• 8899 (IL)");
    await expect(claim).not.toContainText("IL-778899");
    await expect(claim.getByRole("img", { name: "Signature of Dana Lee" })).toBeVisible();
    const result = page.getByTestId("verification-result");
    await expect(result).toContainText("1.75 contact hours");
    await expect(result).not.toContainText("CPE credit");
    await screensAtBothWidths(page, "credit-verify");

    // Her profile holds the licence she gave, filled in, in the one record of her identifiers.
    await page.goto("/profile");
    const identifiers = page.getByRole("region", { name: "Professional licences and identifiers" });
    const licence = identifiers.getByTestId("licence-row");
    await expect(licence).toHaveCount(1);
    await expect(licence.getByLabel("Licence type or board")).toHaveValue("RN");
    await expect(licence.getByLabel("State", { exact: true })).toHaveValue("IL");
    await expect(licence.getByLabel("Licence number")).toHaveValue("IL-778899");
    await screensAtBothWidths(page, "credit-profile-identifiers");

    await expectCreditRecords(page, "nurse", {
      course,
      credit: "1.75 contact hours",
      subject: "Ethics: 1.75",
      profession: "Nursing",
    });
  });

  test("an accountant claims the CPE credits of a course whose fields of study add up, and keeps a certificate and transcript in CPE credits by field of study", async ({
    page,
    adminApi,
    createLearner,
  }) => {
    const course = await createPublishedCourse(adminApi, {
      title: `Revenue Recognition ${Date.now().toString(36)}`,
      category: "Database",
      duration: 2,
      modules: [{ title: "Five steps", duration: 100 }],
    });
    const cpe = await catalogueCredit(adminApi, ACCOUNTING.body, ACCOUNTING.type);
    await setUpClaim(adminApi, course, {
      ...SPONSOR,
      fieldsOfStudy: [
        { field: "Accounting", credits: 1.5 },
        { field: "Ethics", credits: 0.5 },
      ],
    });
    const offered = await offerCredit(adminApi, course.id, {
      bodies: [],
      types: [{ catalogueTypeId: cpe.id, amount: 2, designationStatement: "", claimStep: null }],
    });
    const accountant = await createLearner({ name: "Avery Accountant" });
    await enroll(adminApi, accountant.id, course.id);
    await signIn(page, accountant);
    await expect(page).toHaveURL(/\/learner$/);
    await claimThroughApi(page.request, accountant.id, course, [
      { creditTypeId: offered.creditTypes[0]!.id, amount: null },
    ]);

    const verified = await expectCreditRecords(page, "accountant", {
      course,
      credit: "2 CPE credits",
      subject: "Accounting: 1.5 · Ethics: 0.5",
      profession: "Accounting",
    });
    // A NASBA reviewer reads each field of study with its credits, as the certificate prints them.
    await expect(verified).toContainText("Accounting: 1.5 · Ethics: 0.5");
    await expect(verified).toContainText("112233");
    await expect(verified).not.toContainText("contact hour");
  });

  test("a physician claims AMA PRA Category 1 Credits™ of a jointly accredited course, and keeps a certificate and transcript that name the credit as the AMA writes it", async ({
    page,
    adminApi,
    createLearner,
  }) => {
    const course = await createPublishedCourse(adminApi, {
      title: `Sepsis Recognition ${Date.now().toString(36)}`,
      category: "Mobile",
      duration: 1,
      modules: [{ title: "The first hour", duration: 60 }],
    });
    const ama = await catalogueCredit(adminApi, MEDICINE.body, MEDICINE.type);
    const ancc = await catalogueCredit(adminApi, NURSING.body, NURSING.type);
    const offered = await offerCredit(adminApi, course.id, {
      bodies: [],
      types: [
        {
          catalogueTypeId: ama.id,
          amount: 1,
          designationStatement:
            "Northwind CE designates this enduring material for a maximum of 1 AMA PRA Category 1 Credit™.",
          claimStep: 0.25,
        },
        { catalogueTypeId: ancc.id, amount: 1, designationStatement: "", claimStep: null },
      ],
    });
    await setUpClaim(adminApi, course, SPONSOR);
    const physician = await createLearner({ name: "Priya Physician" });
    await enroll(adminApi, physician.id, course.id);
    await signIn(page, physician);
    await expect(page).toHaveURL(/\/learner$/);
    // Her card names her credit and her profession, never the course's category.
    const card = page
      .getByTestId("course-card")
      .filter({ has: page.getByRole("heading", { name: course.title }) });
    await expect(card).toContainText("Physicians");
    await expect(card).not.toContainText(/\bMobile\b/);
    await claimThroughApi(page.request, physician.id, course, [
      {
        creditTypeId: offered.creditTypes.find((t) => t.catalogueTypeId === ama.id)!.id,
        amount: 1,
      },
    ]);

    const verified = await expectCreditRecords(page, "physician", {
      course,
      credit: "1 AMA PRA Category 1 Credit™",
      subject: "Physicians",
      profession: "Physicians",
    });
    await expect(verified).not.toContainText("contact hour");
  });
});

const STATEMENT_OF = "I certify that I completed this activity myself.";

/** What the course asks before credit: an attestation, and the sponsor's credit settings. */
async function setUpClaim(
  api: APIRequestContext,
  course: SeededCourse,
  settings: CreditSettingsBody,
) {
  const activity: ActivityBody = {
    ...DEFAULT_ACTIVITY,
    attestationRequired: true,
    attestationText: STATEMENT_OF,
  };
  const saved = await api.put(`/api/courses/${course.id}/activity`, { data: activity });
  expect(saved.status(), await saved.text()).toBe(200);
  const credit = await api.put(`/api/courses/${course.id}/credit-settings`, { data: settings });
  expect(credit.status(), await credit.text()).toBe(200);
}

/** The learner's modules, then the attestation with the claims, as the player would send them. */
async function claimThroughApi(
  api: APIRequestContext,
  userId: string,
  course: SeededCourse,
  claims: { creditTypeId: string; amount: number | null }[],
) {
  for (const module of course.modules) {
    const done = await api.post("/api/progress/update", {
      data: { userId, courseId: course.id, moduleId: module.id, progress: 0 },
    });
    expect(done.status(), await done.text()).toBe(200);
  }
  const attested = await api.post(`/api/courses/${course.id}/attest`, {
    data: { statement: STATEMENT_OF, claims },
  });
  expect(attested.status(), await attested.text()).toBe(200);
}

/**
 * The learner's records of a credit course, on screen at both widths and in the PDFs they
 * download: the credit as claimed, the field of study or profession, dates in the portal's
 * format, and never the spec's category. Leaves the verify page open and returns its result.
 */
async function expectCreditRecords(
  page: Page,
  persona: string,
  expected: { course: SeededCourse; credit: string; subject: string; profession: string },
) {
  const { course, credit, subject, profession } = expected;
  // As a word: "Design" is the start of "Designation statement".
  const category = new RegExp(`\\b${course.category}\\b`);
  const mine = (await (await page.request.get("/api/certificates/mine")).json()) as Certificate[];
  const certificate = mine.find((c) => c.courseId === course.id)!;
  const completedOn = formatDocumentDate(certificate.completedAt);
  const readPdf = async (link: ReturnType<Page["getByRole"]>) => {
    const download = page.waitForEvent("download");
    await link.click();
    const text = await pdfText(new Uint8Array(readFileSync((await (await download).path())!)));
    expect(text).toContain(credit);
    expect(text).toContain(completedOn);
    expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
    expect(text).not.toMatch(category);
    return text;
  };

  await page.goto("/learner?tab=certificates");
  const item = page
    .getByTestId("certificate-item")
    .filter({ has: page.getByRole("heading", { name: course.title }) });
  await expect(item).toContainText(`Completed ${completedOn}`);
  await expect(item.getByTestId("certificate-credit")).toHaveText(`${credit} · ${profession}`);
  await expect(item).not.toContainText(category);
  await screensAtBothWidths(page, `persona-${persona}-certificates`);
  const printed = await readPdf(
    item.getByRole("link", { name: `PDF certificate for ${course.title}` }),
  );
  expect(printed).toContain(subject);
  expect(printed).not.toContain("Course length");

  await page.goto("/learner/transcript");
  const entry = page
    .getByTestId("transcript-entry")
    .filter({ has: page.getByText(course.title, { exact: true }) });
  await expect(entry.getByTestId("transcript-entry-credit")).toContainText(credit);
  await expect(entry).not.toContainText(category);
  await screensAtBothWidths(page, `persona-${persona}-transcript`);
  await readPdf(page.getByRole("link", { name: "Download PDF" }));

  await page.goto(`/verify/${certificate.code}`);
  const result = page.getByTestId("verification-result");
  await expect(result).toContainText(credit);
  await expect(result).not.toContainText(category);
  await screensAtBothWidths(page, `persona-${persona}-verify`);
  return result;
}
