import { readFileSync } from "node:fs";
import {
  type ActivityBody,
  type CourseCreditBody,
  type CreditSettingsBody,
  DEFAULT_ACTIVITY,
} from "../src/contract";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll, offerCredit } from "./support/learning";
import { screensAtBothWidths } from "./support/screens";

/** The learner's side of an accredited course's credit claim, from the activity page to the certificate. */

const STATEMENT =
  "I certify that I completed this activity myself and claim only the credit that matches my participation.";

test.describe("Credit claim (learner)", () => {
  test("a nurse reads and acknowledges the activity, evaluates, attests and claims 1.75 of 2 contact hours giving her licence there once, finds it in her profile and downloads a credit-ready certificate; an accountant's certificate prints CPE credits", async ({
    page,
    adminApi,
    createLearner,
  }) => {
    test.setTimeout(180_000);
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
    // Two credit types, each claimed by its profession, each with its body's provider number.
    const offer: CourseCreditBody = {
      bodies: [
        { name: "ANCC", providerNumber: "P-0421" },
        { name: "NASBA", providerNumber: "112233" },
      ],
      types: [
        {
          name: "contact hours",
          amount: 2,
          accreditingBody: "ANCC",
          accreditationStatement: "Northwind CE is accredited by the ANCC.",
          designationStatement: "Awarded up to 2 ANCC contact hours.",
          claimStep: 0.25,
          licenceRequired: true,
        },
        {
          name: "CPE credits",
          amount: 2,
          accreditingBody: "NASBA",
          accreditationStatement: "Northwind CE is registered with NASBA as a CPE sponsor.",
          designationStatement: "Recommended for 2 CPE credits.",
          claimStep: null,
          licenceRequired: false,
        },
      ],
    };
    const offered = await offerCredit(adminApi, course.id, offer);
    const [, cpe] = offered.creditTypes;
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
    const credit: CreditSettingsBody = {
      sponsorName: "Northwind CE",
      sponsorAddress: "1 Main Street, Springfield",
      deliveryMethod: "QAS Self-Study",
      fieldsOfStudy: [{ field: "Ethics", credits: 2 }],
      officialName: "Dana Lee",
      officialTitle: "Director of Education",
    };
    const creditSaved = await adminApi.put(`/api/courses/${course.id}/credit-settings`, {
      data: credit,
    });
    expect(creditSaved.status(), await creditSaved.text()).toBe(200);
    const png = readFileSync("test-fixtures/sample-signature.png").toString("base64");
    const signature = await adminApi.put(`/api/courses/${course.id}/signature`, {
      data: { dataUrl: `data:image/png;base64,${png}` },
    });
    expect(signature.status(), await signature.text()).toBe(200);
    const learner = await createLearner({ name: "Casey Claimant" });
    // The accountant reaches the attestation through the API and claims the CPE credits.
    const accountant = await createLearner({ name: "Avery Accountant" });
    await enroll(adminApi, accountant.id, course.id);
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
      /^2 contact hoursANCC/,
      /^2 CPE creditsNASBA/,
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

    // The accountant claims the CPE credits; their certificate prints those, and only those.
    await page.context().clearCookies();
    await signIn(page, accountant);
    await expect(page).toHaveURL(/\/learner$/);
    const api = page.request;
    const url = (path: string) => `/api/courses/${course.id}/${path}`;
    expect((await api.post(url("acknowledge"))).status()).toBe(200);
    for (const module of course.modules) {
      const done = await api.post("/api/progress/update", {
        data: { userId: accountant.id, courseId: course.id, moduleId: module.id, progress: 0 },
      });
      expect(done.status(), await done.text()).toBe(200);
    }
    const evaluation = await api.post(url("evaluation"), {
      data: {
        answers: ["objectives", "relevance", "balance", "faculty"].map((itemId) => ({
          itemId,
          value: 4,
        })),
      },
    });
    expect(evaluation.status(), await evaluation.text()).toBe(201);
    const attested = await api.post(url("attest"), {
      data: { statement: STATEMENT, claims: [{ creditTypeId: cpe!.id, amount: null }] },
    });
    expect(attested.status(), await attested.text()).toBe(200);
    const [issued] = (await (await api.get("/api/certificates/mine")).json()) as { code: string }[];
    await page.goto(`/verify/${issued!.code}`);
    const accountantResult = page.getByTestId("verification-result");
    await expect(accountantResult).toContainText("2 CPE credits");
    await expect(accountantResult).toContainText("112233");
    await expect(accountantResult).not.toContainText("contact hour");
    await screensAtBothWidths(page, "credit-verify-cpe");
  });
});
