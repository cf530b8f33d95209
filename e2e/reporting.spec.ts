import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { type ActivityBody, type CourseCreditBody, DEFAULT_ACTIVITY } from "../src/contract";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll, offerCredit } from "./support/learning";
import { screensAtBothWidths } from "./support/screens";

/** Regulator reporting: a physician's completion reported to ACCME PARS, with the activity record. */

/** A downloaded PARS upload (tab-delimited Latin-1 text, CRLF, no quoting), as its rows. */
const parsRows = (path: string) =>
  parse(readFileSync(path), {
    encoding: "latin1",
    delimiter: "\t",
    record_delimiter: "\r\n",
    quote: false,
  }) as string[][];
const US_DATE = /^\d\d\/\d\d\/\d{4}$/;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

const STATEMENT = "I certify that I completed this activity myself.";
const PARS_ACTIVITY_ID = "201234567";

test.describe("Regulator reporting", () => {
  test("a physician gives their licence and birth date once, consents and attests, and the admin downloads the PARS learner and activity files", async ({
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
    const offered = await offerCredit(adminApi, course.id, offer);
    const [ama] = offered.creditTypes;
    // An enduring material: PARS dates it from its release to its expiration.
    const released = dayOf(new Date(Date.now() - 30 * 86_400_000));
    const expires = dayOf(new Date(Date.now() + 730 * 86_400_000));
    const activity: ActivityBody = {
      ...DEFAULT_ACTIVITY,
      releaseDate: released,
      expirationDate: expires,
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
    // What the PARS activity record says of the course besides its ID.
    await reporting.getByLabel("Activity format").selectOption({
      label: "Internet enduring material",
    });
    await reporting.getByLabel("Providership").selectOption({ label: "Direct" });
    await reporting.getByLabel("Commercial support received").selectOption({ label: "No" });
    await reporting.getByRole("button", { name: "Save reporting" }).click();
    await expectToast(page, "Reporting saved");
    await dismissToast(page);
    // The activity record, from the course page: no learner has completed yet.
    await reporting.getByRole("button", { name: "PARS activity file" }).click();
    const activityResult = reporting.getByTestId("generated-file");
    await expect(activityResult).toContainText("1 row");
    const cardDownload = page.waitForEvent("download");
    await activityResult.getByRole("link", { name: "Download" }).click();
    const cardFile = await cardDownload;
    expect(cardFile.suggestedFilename()).toMatch(/^pars-activity-.+\.txt$/);
    const [record] = parsRows((await cardFile.path())!);
    expect(record).toHaveLength(10);
    expect(record!.slice(0, 3)).toEqual([PARS_ACTIVITY_ID, course.title, "IEM"]);
    expect(record![3]).toMatch(US_DATE);
    expect(record![4]).toMatch(US_DATE);
    expect(record!.slice(5)).toEqual(["1", "Direct", "No", "0", "0"]);
    await screensAtBothWidths(page, "reporting-course-settings");
    await page.context().clearCookies();

    // The physician gives their identifiers once, in the profile.
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto("/profile");
    const card = page.getByRole("region", { name: "Professional licences and identifiers" });
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
    const licence = card.getByTestId("licence-row");
    await licence.getByLabel("Licence type or board").fill("MD");
    await licence.getByLabel("State", { exact: true }).selectOption("OR");
    await licence.getByLabel("Licence number").fill("MD204518");
    await screensAtBothWidths(page, "reporting-profile");
    await card.getByRole("button", { name: "Save identifiers" }).click();
    await expectToast(page, "Identifiers saved");
    await dismissToast(page);

    // Before attesting they are read back, filled in, and nothing is asked.
    for (const module of course.modules) {
      const done = await page.request.post("/api/progress/update", {
        data: { userId: learner.id, courseId: course.id, moduleId: module.id, progress: 0 },
      });
      expect(done.status(), await done.text()).toBe(200);
    }
    await page.goto(`/courses/${course.id}/attestation`);
    const panel = page.getByTestId("attestation-identifiers");
    await expect(panel).toContainText("Your credit is reported to ACCME PARS");
    await expect(panel).toContainText("Your profile holds everything this credit needs.");
    await expect(panel.getByTestId("attestation-identifiers-summary")).toContainText(
      /MD MD204518 \(OR\).*Ada Byron.*February 29.*1234567893/,
    );
    await expect(panel.getByRole("textbox")).toHaveCount(0);
    await screensAtBothWidths(page, "reporting-attestation");
    // They can be changed here too, the form filled in with them.
    await panel.getByRole("button", { name: "Change details" }).click();
    await expect(panel.getByLabel("Last name")).toHaveValue("Byron");
    await expect(panel.getByLabel("Licence number")).toHaveValue("MD204518");
    await expect(panel.getByLabel("Day")).toHaveValue("29");
    await page.getByRole("checkbox", { name: "I affirm this statement" }).check();
    // The claim is reported: it asks the learner's consent, naming the regulator.
    await page.getByRole("button", { name: "Attest and claim credit" }).click();
    await expect(
      page.getByText("Tick the box to agree to the reporting of your credit"),
    ).toBeVisible();
    await page
      .getByRole("checkbox", { name: /reports my completion of this activity to ACCME PARS/ })
      .check();
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
    await expect(claim.getByTestId("claim-consent")).toContainText(
      "reports my completion of this activity to ACCME PARS",
    );
    // A range with its days swapped: said under the end day, for both files, and nothing made.
    const from = parsPanel.getByLabel("Completed from");
    const to = parsPanel.getByLabel("Completed to");
    const range = [await from.inputValue(), await to.inputValue()] as const;
    const files = await parsPanel.getByTestId("report-file").count();
    await from.fill(range[1]);
    await to.fill(range[0]);
    for (const button of ["Generate file", "Generate activity file"]) {
      await parsPanel.getByRole("button", { name: button }).click();
      await expect(to).toHaveAttribute("aria-invalid", "true");
      await expect(to).toHaveAccessibleDescription("The start date must not be after the end date");
      await expect(parsPanel.getByText("The file could not be generated.")).toHaveCount(0);
    }
    await expect(parsPanel.getByTestId("report-file")).toHaveCount(files);
    await screensAtBothWidths(page, "reporting-range-swapped");
    await from.fill(range[0]);
    await to.fill(range[1]);

    await parsPanel.getByRole("button", { name: "Generate file" }).click();
    await expect(to).not.toHaveAttribute("aria-invalid", "true");
    await expect(parsPanel.getByTestId("generated-file")).toContainText("1 row");
    await dismissToast(page);
    const file = parsPanel.getByTestId("report-file").filter({ hasText: "pars-learners-" });
    await expect(file).toContainText("Not submitted");
    const download = page.waitForEvent("download");
    await file.getByRole("link", { name: "Download" }).click();
    const saved_ = await download;
    expect(saved_.suggestedFilename()).toMatch(/^pars-learners-.+\.txt$/);
    const rows = parsRows((await saved_.path())!);
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
    await screensAtBothWidths(page, "reporting-generated");

    await file.getByRole("button", { name: "Mark as submitted" }).click();
    const dialog = page.getByRole("dialog", { name: "Mark as submitted?" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      "Its claim then counts as reported, and the next file leaves it out.",
    );
    await screensAtBothWidths(page, "reporting-mark-submitted");
    await dialog.getByRole("button", { name: "Mark as submitted" }).click();
    await expectToast(page, "Marked as submitted");
    await dismissToast(page);
    await expect(file).toContainText("Submitted");
    await expect(claim).toContainText("Reported");
    await expect(claim).toContainText(/Reported .* in pars-learners-/);
    await screensAtBothWidths(page, "reporting-submitted");

    // The activity record now counts the physician who completed.
    await parsPanel.getByRole("button", { name: "Generate activity file" }).click();
    await expect(parsPanel.getByTestId("generated-file")).toContainText("pars-activity-");
    await dismissToast(page);
    const activityFile = parsPanel
      .getByTestId("report-file")
      .filter({ hasText: "Activity record" })
      .first();
    const activityDownload = page.waitForEvent("download");
    await activityFile.getByRole("link", { name: "Download" }).click();
    const [counted] = parsRows((await (await activityDownload).path())!);
    expect(counted!.slice(-2)).toEqual(["1", "0"]);
    await screensAtBothWidths(page, "reporting-activity-file");
    expect(ama).toBeDefined();
  });
});
