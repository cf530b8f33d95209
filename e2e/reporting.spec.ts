import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parse } from "csv-parse/sync";
import * as XLSX from "xlsx";
import { type ActivityBody, type CourseCreditBody, DEFAULT_ACTIVITY } from "../src/contract";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll, offerCredit } from "./support/learning";
import { screensAtBothWidths } from "./support/screens";

/**
 * Regulator reporting: a physician's completion reported to ACCME PARS, with the activity
 * record, and sent to CPE Monitor's web service (a stand-in started here).
 */

/** A downloaded PARS activity upload (tab-delimited Latin-1 text, CRLF, no quoting), as its rows. */
const parsRows = (path: string) =>
  parse(readFileSync(path), {
    encoding: "latin1",
    delimiter: "\t",
    record_delimiter: "\r\n",
    quote: false,
  }) as string[][];
/** The learner rows of a downloaded PARS Excel learner template, read by SheetJS (header on row 2). */
const learnerRows = (path: string) => {
  const book = XLSX.read(readFileSync(path), { type: "buffer" });
  return XLSX.utils
    .sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, {
      header: 1,
      raw: false,
      defval: "",
    })
    .slice(2);
};
const US_DATE = /^\d\d\/\d\d\/\d{4}$/;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

const STATEMENT = "I certify that I completed this activity myself.";
const PARS_ACTIVITY_ID = "201234567";
const UAN = "0197-0000-26-105-H01-P";
const REFUSAL = "Date of participation is outside the activity dates";

test.describe("Regulator reporting", () => {
  test("a physician gives their identifiers once, consents and attests; the admin downloads the PARS files and sends the completion to CPE Monitor", async ({
    page,
    admin,
    adminApi,
    createLearner,
  }) => {
    test.slow();
    // CPE Monitor's SubmitCPEActivityJSON, standing in: records each request and refuses it
    // with an error_message, as the public integrations read the service's answer.
    const sent: URLSearchParams[] = [];
    const service = createServer((req, res) => {
      sent.push(new URL(req.url ?? "/", "http://localhost").searchParams);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ status: "Rejected", error_message: REFUSAL }));
    });
    await new Promise<void>((done) => service.listen(0, "127.0.0.1", done));
    service.unref();
    const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/service/cpemonitorservice.asmx`;
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

    // The administrator says on the course page that the AMA credit reports to PARS and to
    // CPE Monitor, with what each upload says of the activity.
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto(`/admin/courses/${course.id}`);
    const reporting = page.getByRole("region", { name: "Regulator reporting" });
    await reporting.getByRole("checkbox", { name: "Report to ACCME PARS" }).check();
    await expect(reporting.getByText("Needs its PARS activity ID")).toBeVisible();
    await reporting.getByLabel("PARS activity ID").fill(PARS_ACTIVITY_ID);
    await reporting.getByLabel("Provider activity ID").fill("1001");
    await reporting.getByLabel("Activity type").selectOption({ label: "Course (in person)" });
    // Held in person: the template asks where.
    await reporting.getByLabel("City").fill("Portland");
    await reporting.getByLabel("State", { exact: true }).selectOption("OR");
    await reporting.getByLabel("Country (ISO code)").fill("USA");
    await reporting.getByLabel("Providership").selectOption({ label: "Direct" });
    await reporting.getByLabel("Commercial support received").selectOption({ label: "Yes" });
    await reporting.getByRole("button", { name: "Add supporter" }).click();
    await reporting.getByLabel("Supporter", { exact: true }).fill("Acme Pharma");
    await reporting.getByLabel("Amount ($)").fill("2500");
    await reporting.getByText(/Competencies addressed/).click();
    await reporting.getByRole("checkbox", { name: "ABMS/ACGME - Medical Knowledge" }).check();
    await expect(reporting.getByText("Competencies addressed (1 chosen)")).toBeVisible();
    await reporting.getByRole("checkbox", { name: "Report to NABP CPE Monitor" }).check();
    await reporting.getByLabel("ACPE UAN").fill(UAN);
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
    // Every field of ACCME's activity template, blank ones included, then the supporter's.
    const [record] = parsRows((await cardFile.path())!);
    expect(record).toHaveLength(55);
    expect(record!.slice(0, 3)).toEqual(["Template D", PARS_ACTIVITY_ID, "1001"]);
    expect(record![4]).toBe(course.title);
    expect(record![5]).toMatch(US_DATE);
    expect(record!.slice(6, 15)).toEqual([
      "Portland",
      "OR",
      "USA",
      "Direct",
      "C",
      "1",
      "0",
      "0",
      "Yes",
    ]);
    expect(record![32]).toBe("Yes");
    expect(record!.slice(47, 49)).toEqual(["Acme Pharma", "2500"]);
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
    await card.getByLabel("NABP e-Profile ID").fill("123456");
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
      "reports my completion of this activity to NABP CPE Monitor and ACCME PARS",
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
    expect(saved_.suggestedFilename()).toMatch(/^pars-learners-.+\.xlsx$/);
    // ACCME's Excel learner template: Record Action, activity, completion, name, MM/DD birth
    // date, the state's name and the licence (else the NPI) in one column, then the credits.
    const rows = learnerRows((await saved_.path())!);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(0, 9)).toEqual([
      "Add",
      PARS_ACTIVITY_ID,
      expect.stringMatching(US_DATE),
      "Ada",
      "Byron",
      "02/29",
      "Oregon",
      "MD204518",
      "1",
    ]);
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
    expect(counted!.slice(12, 14)).toEqual(["1", "0"]);
    await screensAtBothWidths(page, "reporting-activity-file");
    expect(ama).toBeDefined();

    // CPE Monitor takes completions by its web service: the administrator connects Credo to
    // it, the password saved but never shown again, and sends the completion.
    await page.getByRole("tab", { name: /NABP CPE Monitor/ }).click();
    const cpePanel = page.getByRole("tabpanel", { name: /NABP CPE Monitor/ });
    await expect(cpePanel.getByRole("button", { name: "Generate file" })).toHaveCount(0);
    await cpePanel.getByRole("button", { name: "Submit to CPE Monitor" }).click();
    await expect(cpePanel.getByRole("alert")).toContainText(
      "Enter the ACPE provider number, CPE Monitor user name, CPE Monitor password under Connection settings on the Reporting page first.",
    );
    await cpePanel.getByLabel("ACPE provider number").fill("0197");
    await cpePanel.getByLabel("User name").fill("northwind");
    await cpePanel.getByLabel("Service address").fill(serviceUrl);
    await cpePanel.getByLabel("Password", { exact: true }).fill("s3cret!");
    await cpePanel.getByRole("button", { name: "Save connection" }).click();
    await expectToast(page, "NABP CPE Monitor connection saved");
    await dismissToast(page);
    await expect(cpePanel.getByText("A password is saved")).toBeVisible();
    await expect(cpePanel.getByLabel("Password", { exact: true })).toHaveCount(0);
    await cpePanel.getByRole("button", { name: "Submit to CPE Monitor" }).click();
    await expect(cpePanel.getByTestId("cpe-monitor-result")).toContainText(
      "0 accepted · 1 refused · 0 waiting",
    );
    expect(Object.fromEntries(sent[0]!)).toMatchObject({
      provider_number: "0197",
      epid: "123456",
      date_of_birth: "0229",
      uan: UAN,
      action: "I",
      username: "northwind",
      password: "s3cret!",
    });
    const answered = cpePanel.getByTestId("report-claim").filter({ hasText: "Ada Byron" });
    const answer = answered.getByTestId("claim-submission");
    await expect(answer).toContainText("Refused by CPE Monitor");
    await expect(answer).toContainText(`“${REFUSAL}”`);
    await screensAtBothWidths(page, "reporting-cpe-monitor");
    // Replacing the password asks for the new one, the keyboard already in its field.
    await cpePanel.getByRole("button", { name: "Replace" }).click();
    await expect(cpePanel.getByLabel("Password", { exact: true })).toBeFocused();
    service.close();

    // CE Broker's connection: what each roster download writes in.
    await page.getByRole("tab", { name: /CE Broker/ }).click();
    const ceBroker = page.getByRole("tabpanel", { name: /CE Broker/ });
    await expect(ceBroker.getByLabel("Parent provider ID")).toBeVisible();
    await expect(ceBroker.getByLabel("Upload key", { exact: true })).toBeVisible();
    await screensAtBothWidths(page, "reporting-ce-broker-connection");
  });
});
