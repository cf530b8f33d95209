import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { type ActivityBody, type CreditSettingsBody, DEFAULT_ACTIVITY } from "../src/contract";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll } from "./support/learning";
import { screen } from "./support/screens";

/** The learner's side of an accredited course's credit claim, from the activity page to the certificate. */

/** Screenshots at desktop (1280) and phone (390) width, each checked with axe. */
async function screens(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await screen(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await screen(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const STATEMENT =
  "I certify that I completed this activity myself and claim only the credit that matches my participation.";

test.describe("Credit claim (learner)", () => {
  test("a learner reads and acknowledges the activity, evaluates, attests and claims 1.75 of 2 credits, adds a licence and downloads a credit-ready certificate", async ({
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
    const settings = await adminApi.patch(`/api/courses/${course.id}/settings`, {
      data: { creditHours: 2, creditType: "CE" },
    });
    expect(settings.status(), await settings.text()).toBe(200);
    const activity: ActivityBody = {
      ...DEFAULT_ACTIVITY,
      objectives: ["Describe a producer's duties to the client."],
      faculty: [{ name: "Jordan Pike", role: "Author", disclosure: "Nothing to disclose." }],
      accreditationStatement: "Approved by the Department of Insurance for 2 hours of ethics CE.",
      releaseDate: "2026-01-15",
      acknowledgementRequired: true,
      evaluationRequired: true,
      attestationRequired: true,
      attestationText: STATEMENT,
      partialCreditStep: 0.25,
    };
    const saved = await adminApi.put(`/api/courses/${course.id}/activity`, { data: activity });
    expect(saved.status(), await saved.text()).toBe(200);
    const credit: CreditSettingsBody = {
      sponsorName: "Northwind CE",
      sponsorAddress: "1 Main Street, Springfield",
      deliveryMethod: "QAS Self-Study",
      fieldsOfStudy: [{ field: "Ethics", credits: 2 }],
      registryNumber: "IL-4455",
      officialName: "Dana Lee",
      officialTitle: "Director of Education",
      licenceRequired: true,
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
    await screens(page, "credit-player-locked");

    await page.getByRole("link", { name: "Read About this activity first" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "About this activity" }),
    ).toBeVisible();
    await expect(page.getByText("Describe a producer's duties to the client.")).toBeVisible();
    await expect(page.getByText("Jordan Pike")).toBeVisible();
    await expect(page.getByText("January 15, 2026")).toBeVisible();
    await screens(page, "credit-about");
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
    await page.getByRole("button", { name: "Submit evaluation" }).click();
    await expect(page.getByText("Choose a rating")).toHaveCount(4);
    const ratings = page.getByRole("group");
    for (let i = 0; i < 4; i++) {
      await ratings
        .nth(i)
        .getByRole("radio", { name: /Agree$/ })
        .first()
        .check();
    }
    await page.getByRole("textbox", { name: /Comments and suggestions/ }).fill("Clear and short.");
    await expect(page.getByText("16 / 2000 characters")).toBeVisible();
    await screens(page, "credit-evaluation");
    await page.getByRole("button", { name: "Submit evaluation" }).click();
    await expect(page.getByTestId("evaluation-done")).toContainText("Thank you for your feedback");

    await page.getByRole("link", { name: "Attest and claim credit" }).click();
    await expect(page.getByTestId("attestation-statement")).toHaveText(STATEMENT);
    await page.getByRole("button", { name: "Attest and claim credit" }).click();
    await expect(page.getByText("Tick the box to affirm the statement")).toBeVisible();
    await page.getByRole("checkbox", { name: "I affirm this statement" }).check();
    await page.getByRole("combobox", { name: "Credits claimed (up to 2)" }).click();
    await page.getByRole("option", { name: "1.75 CE credits" }).click();
    await screens(page, "credit-attestation");
    await page.getByRole("button", { name: "Attest and claim credit" }).click();
    await expect(page.getByTestId("attested-summary")).toContainText("1.75 CE credits claimed");

    // The course asks for a licence before its certificate.
    await page.getByRole("link", { name: "Add your licence" }).click();
    await expect(page).toHaveURL(/\/profile#licence$/);
    await expect(page.getByLabel("Licence type")).toBeFocused();
    await page.getByLabel("Licence type").fill("Insurance producer");
    await page.getByLabel("Licence number").fill("IL-778899");
    await page.getByLabel("Issuing state or board").fill("Illinois");
    await page.getByRole("button", { name: "Save licence" }).click();
    await expectToast(page, "Licence saved");

    await page.goto(`/courses/${course.id}/attestation`);
    await expect(checklist.getByTestId("completion-step").last()).toHaveAttribute(
      "data-state",
      "done",
    );
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download certificate" }).click();
    const html = readFileSync((await (await download).path())!, "utf8");
    expect(html).toContain("1.75 CE credits claimed (2 designated)");
    expect(html).toContain("<dd>Ethics: 1.75</dd>");
    expect(html).toContain("<dd>Northwind CE</dd>");
    expect(html).toContain("<dd>1 Main Street, Springfield</dd>");
    expect(html).toContain("Insurance producer IL-778899 (Illinois)");
    expect(html).toContain('alt="Signature of Dana Lee"');
    expect(html).toContain("Dana Lee, Director of Education");

    const code = /Certificate no\. ([0-9A-Z-]+)/.exec(html)?.[1]?.replace(/-/g, "");
    await page.goto(`/verify/${code}`);
    const claim = page.getByTestId("verification-credit");
    await expect(claim).toContainText("QAS Self-Study");
    // Anyone holding the code sees the licence masked to its last characters.
    await expect(claim).toContainText("Insurance producer •••• 8899 (Illinois)");
    await expect(claim).not.toContainText("IL-778899");
    await expect(claim.getByRole("img", { name: "Signature of Dana Lee" })).toBeVisible();
    await screens(page, "credit-verify");
  });
});
