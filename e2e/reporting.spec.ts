import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import {
  type ActivityBody,
  type Course,
  type CourseCreditBody,
  DEFAULT_ACTIVITY,
} from "../src/contract";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll } from "./support/learning";
import { screen } from "./support/screens";

/** Regulator reporting: a physician's completion reported to ACCME PARS. */

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

const STATEMENT = "I certify that I completed this activity myself.";
const PARS_ACTIVITY_ID = "201234567";

test.describe("Regulator reporting", () => {
  test("a physician gives their licence and birth date once, attests, and the admin downloads the PARS file and marks it submitted", async ({
    page,
    admin,
    adminApi,
    createLearner,
  }) => {
    test.setTimeout(180_000);
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Sepsis Update ${stamp}`,
      modules: [{ title: "Recognising sepsis", duration: 20 }],
    });
    const offer: CourseCreditBody = {
      bodies: [{ name: "ACCME", providerNumber: "PN-4321" }],
      types: [
        {
          name: "AMA PRA Category 1 Credits™",
          amount: 1,
          accreditingBody: "ACCME",
          accreditationStatement: "Northwind CME is accredited by the ACCME.",
          designationStatement: "Designated for a maximum of 1 AMA PRA Category 1 Credit™.",
          claimStep: null,
          licenceRequired: false,
        },
      ],
    };
    const offered = await adminApi.put(`/api/courses/${course.id}/credit`, { data: offer });
    expect(offered.status(), await offered.text()).toBe(200);
    const [ama] = ((await offered.json()) as Course).creditTypes;
    const activity: ActivityBody = {
      ...DEFAULT_ACTIVITY,
      attestationRequired: true,
      attestationText: STATEMENT,
    };
    const saved = await adminApi.put(`/api/courses/${course.id}/activity`, { data: activity });
    expect(saved.status(), await saved.text()).toBe(200);
    const learner = await createLearner({ name: "Ada Byron" });
    await enroll(adminApi, learner.id, course.id);

    // The administrator says on the course page that the AMA credit reports to PARS.
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto(`/admin/courses/${course.id}`);
    const reporting = page.getByRole("region", { name: "Regulator reporting" });
    await reporting.getByRole("checkbox", { name: "Report to ACCME PARS" }).check();
    await expect(reporting.getByText("Needs its PARS activity ID")).toBeVisible();
    await reporting.getByLabel("PARS activity ID").fill(PARS_ACTIVITY_ID);
    await reporting.getByRole("button", { name: "Save reporting" }).click();
    await expectToast(page, "Reporting saved");
    await dismissToast(page);
    await screens(page, "reporting-course-settings");
    await page.context().clearCookies();

    // The physician gives their identifiers once, in the profile.
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto("/profile");
    const card = page.getByRole("region", { name: "Credit reporting" });
    await card.getByLabel("First name").fill("Ada");
    await card.getByLabel("Last name").fill("Byron");
    await card.getByLabel("Month").selectOption({ label: "February" });
    await card.getByLabel("Day").selectOption("30");
    await card.getByLabel("NPI").fill("1234567890");
    await card.getByRole("button", { name: "Save identifiers" }).click();
    // Each identifier is held to its published rule before anything is sent.
    await expect(card.getByText("Enter a month and day of birth that exist")).toBeVisible();
    await expect(card.getByText(/An NPI is 10 digits whose last digit checks/)).toBeVisible();
    await card.getByLabel("Day").selectOption("29");
    await card.getByLabel("NPI").fill("1234567893");
    await card.getByLabel("State of licensure").selectOption("OR");
    await card.getByLabel("State licence number").fill("MD204518");
    await screens(page, "reporting-profile");
    await card.getByRole("button", { name: "Save identifiers" }).click();
    await expectToast(page, "Identifiers saved");
    await dismissToast(page);

    // Before attesting they are shown again, filled in.
    for (const module of course.modules) {
      const done = await page.request.post("/api/progress/update", {
        data: { userId: learner.id, courseId: course.id, moduleId: module.id, progress: 0 },
      });
      expect(done.status(), await done.text()).toBe(200);
    }
    await page.goto(`/courses/${course.id}/attestation`);
    const panel = page.getByTestId("regulator-ids-panel");
    await expect(panel.getByRole("heading", { name: "Reported to ACCME PARS" })).toBeVisible();
    await expect(panel).toContainText("Your details are complete for ACCME PARS.");
    await expect(panel.getByTestId("regulator-ids-summary")).toContainText(
      /Ada Byron.*February 29.*MD204518 \(OR\).*1234567893/,
    );
    await screens(page, "reporting-attestation");
    // They can be changed here too, the form filled in with them.
    await panel.getByRole("button", { name: "Change details" }).click();
    await expect(panel.getByLabel("Last name")).toHaveValue("Byron");
    await expect(panel.getByLabel("State licence number")).toHaveValue("MD204518");
    await expect(panel.getByLabel("Day")).toHaveValue("29");
    await page.getByRole("checkbox", { name: "I affirm this statement" }).check();
    await page.getByRole("button", { name: "Attest and claim credit" }).click();
    await expect(page.getByTestId("attested-summary")).toContainText(
      "1 AMA PRA Category 1 Credit™ claimed",
    );
    await page.context().clearCookies();

    // The administrator downloads the PARS learner file and marks it submitted.
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.getByRole("link", { name: "Reporting" }).first().click();
    await expect(page).toHaveURL(/\/admin\/reporting$/);
    await page.goto(`/admin/reporting?courseId=${course.id}`);
    await expect(page.getByRole("tab", { name: /ACCME PARS/ })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    const parsPanel = page.getByRole("tabpanel", { name: /ACCME PARS/ });
    await expect(parsPanel.getByLabel("Course")).toHaveValue(course.id);
    const claim = parsPanel.getByTestId("report-claim").filter({ hasText: "Ada Byron" });
    await expect(claim).toContainText("Not yet reported");
    await parsPanel.getByRole("button", { name: "Generate file" }).click();
    await expect(parsPanel.getByTestId("generated-file")).toContainText("1 row");
    await dismissToast(page);
    const file = parsPanel.getByTestId("report-file").first();
    await expect(file).toContainText("Not submitted");
    const download = page.waitForEvent("download");
    await file.getByRole("link", { name: "Download" }).click();
    const saved_ = await download;
    expect(saved_.suggestedFilename()).toMatch(/^pars-learners-.+\.txt$/);
    const rows = parse(readFileSync((await saved_.path())!), {
      encoding: "latin1",
      delimiter: "\t",
      record_delimiter: "\r\n",
      quote: false,
    }) as string[][];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(0, 7)).toEqual([
      PARS_ACTIVITY_ID,
      "Ada",
      "Byron",
      "02",
      "29",
      "OR",
      "MD204518",
    ]);
    expect(rows[0]![9]).toBe("1234567893");
    expect(rows[0]![11]).toBe("1");
    await screens(page, "reporting-generated");

    await file.getByRole("button", { name: "Mark as submitted" }).click();
    const dialog = page.getByRole("dialog", { name: "Mark as submitted?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Mark as submitted" }).click();
    await expectToast(page, "Marked as submitted");
    await dismissToast(page);
    await expect(file).toContainText("Submitted");
    await expect(claim).toContainText("Reported");
    await expect(claim).toContainText(/Reported .* in pars-learners-/);
    await screens(page, "reporting-submitted");
    expect(ama).toBeDefined();
  });
});
