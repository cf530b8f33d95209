import { readFileSync } from "node:fs";
import type { APIRequestContext, Download, Page, PlaywrightWorkerArgs } from "@playwright/test";
import { addCatalogueBody, addCatalogueType } from "./support/catalogue";
import {
  dismissToast,
  expect,
  expectToast,
  fromAddress,
  type LearnerAccount,
  signIn,
  test,
} from "./support/fixtures";
import { createPublishedCourse } from "./support/learning";
import { screen } from "./support/screens";

/** The administrator's side of an accredited course: the set-up, the evaluation results, the credit report. */

/**
 * Screenshots at desktop (1280) and phone (390) width, each checked with axe; `show` brings
 * the part of an open dialog that matters into view at each width.
 */
async function screens(page: Page, name: string, show?: () => Promise<void>) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await show?.();
  await screen(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await show?.();
  await screen(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** RFC 4180 as the server writes it: quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else if (ch !== "\r") {
      field += ch;
    }
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** A downloaded CSV file as records keyed by its header row; spreadsheets get a BOM, dropped here. */
async function readCsv(download: Download) {
  const text = readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
  const [header, ...rows] = parseCsv(text);
  return {
    header: header!,
    records: rows.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ""]))),
  };
}

const STATEMENT =
  "I attest that I completed this activity myself and claim only the credit commensurate with the extent of my participation.";
const ACCREDITATION =
  "Northwind Medical Education is accredited by the Accreditation Council for Continuing Medical Education (ACCME) to provide continuing medical education for physicians. Northwind Medical Education designates this enduring material for a maximum of 2 AMA PRA Category 1 Credits™. Physicians should claim only the credit commensurate with the extent of their participation in the activity.";
const DISCLOSURE =
  "Dr. Rosa Medina (course director) has received consulting fees from Acme Pharma. All relevant financial relationships have been mitigated.";
const NEW_ITEM = "I will change how I prescribe after this activity.";
const COMMENT = "Очень полезный курс: разборы случаев помогли мне на практике.";

test.describe("Credit claim (administrator)", () => {
  test("an administrator sets up an ACCME activity, credit settings and evaluation, then reads two learners' evaluations and the credit report", async ({
    page,
    admin,
    adminApi,
    createLearner,
    enroll,
    playwright,
    baseURL,
  }) => {
    test.slow();
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Safe Opioid Prescribing ${stamp}`,
      description: "Assessing risk, tapering and naloxone in primary care.",
      category: "Design",
      duration: 2,
      modules: [
        { title: "Assessing risk", duration: 40 },
        { title: "Tapering and naloxone", duration: 40 },
      ],
    });
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto(`/admin/courses/${course.id}`);
    const accreditation = page.getByRole("region", { name: "Accreditation" });
    const activitySummary = accreditation.getByTestId("activity-summary");
    await expect(activitySummary.getByRole("definition").first()).toHaveText("Not set");

    // The activity page, written the way ACCME asks for it.
    await accreditation.getByRole("button", { name: "Edit activity" }).click();
    const activity = page.getByRole("dialog", { name: "Edit activity" });
    await activity.getByRole("button", { name: "Add objective" }).click();
    await activity
      .getByRole("textbox", { name: "Objective 1." })
      .fill("Assess a patient's risk before prescribing an opioid.");
    await activity.getByRole("button", { name: "Add objective" }).click();
    await activity
      .getByRole("textbox", { name: "Objective 2." })
      .fill("Plan a taper and prescribe naloxone where indicated.");
    await activity.getByRole("button", { name: "Add person" }).click();
    const person = activity.getByTestId("faculty-row");
    await person.getByLabel("Name").fill("Dr. Rosa Medina");
    await person.getByLabel("Role").fill("Course director");
    await person.getByLabel("Disclosure").fill("Consulting fees: Acme Pharma (mitigated).");
    await activity.getByLabel("Disclosure statement").fill(DISCLOSURE);
    await activity.getByLabel("Release date").fill("2026-01-15");
    // Reviewed "before" it was released: the dates are out of order.
    await activity.getByLabel("Review date").fill("2025-06-01");
    await activity.getByLabel("Expiration date").fill("2099-12-31");
    await activity.getByRole("checkbox", { name: /^Require acknowledgement/ }).check();
    await activity.getByRole("checkbox", { name: /^Require the evaluation/ }).check();
    // Never marked optional: with attestation asked for, the statement is required.
    const statement = activity.getByLabel("Attestation statement", { exact: true });
    await expect(statement).not.toHaveAttribute("aria-required", "true");
    await activity.getByRole("checkbox", { name: /^Require attestation/ }).check();
    await expect(statement).toHaveAttribute("aria-required", "true");
    await expect(activity.getByText("Attestation statement (optional)")).toHaveCount(0);
    // From the top: the objectives and the faculty.
    await screens(page, "credit-admin-activity-dialog", () =>
      activity.evaluate((dialog) => dialog.scrollTo(0, 0)),
    );

    // Without the statement learners attest to, and with the dates out of order, nothing is saved.
    await activity.getByRole("button", { name: "Save activity" }).click();
    await expect(activity.getByRole("alert")).toHaveText([
      "Dates must run release, review, expiration",
      "Write the statement learners attest to",
    ]);
    await expect(activity.getByLabel("Review date")).toBeFocused();
    await expect(activity.getByLabel("Attestation statement")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await screens(page, "credit-admin-activity-errors");
    const unsaved = await adminApi.get(`/api/courses/${course.id}/activity`);
    expect(unsaved.status(), await unsaved.text()).toBe(200);
    expect(await unsaved.json()).toMatchObject({
      objectives: [],
      attestationRequired: false,
    });

    await activity.getByLabel("Review date").fill("2026-06-01");
    await activity.getByLabel("Attestation statement").fill(STATEMENT);
    await expect(activity.getByRole("alert")).toHaveCount(0);
    await activity.getByRole("button", { name: "Save activity" }).click();
    await expectToast(page, "Activity saved");
    await expect(activity).toBeHidden();
    await dismissToast(page);
    await expect(activitySummary.getByRole("definition")).toHaveText([
      "2",
      "1",
      "January 15, 2026",
      "June 1, 2026",
      "December 31, 2099",
      "No limit",
      "6 years",
    ]);
    await expect(
      accreditation.getByRole("list", { name: "Steps learners complete" }).getByRole("listitem"),
    ).toHaveText(["Acknowledgement: required", "Evaluation: required", "Attestation: required"]);
    const saved = await adminApi.get(`/api/courses/${course.id}/activity`);
    expect(await saved.json()).toMatchObject({
      objectives: [
        "Assess a patient's risk before prescribing an opioid.",
        "Plan a taper and prescribe naloxone where indicated.",
      ],
      faculty: [
        {
          name: "Dr. Rosa Medina",
          role: "Course director",
          disclosure: "Consulting fees: Acme Pharma (mitigated).",
        },
      ],
      disclosureStatement: DISCLOSURE,
      attestationText: STATEMENT,
    });

    // The credit, chosen from the organisation's catalogue, where the body is named once with
    // its provider number: physicians claim AMA credit, nurses contact hours, under one body.
    const body = await addCatalogueBody(adminApi, {
      name: `Joint Accreditation ${stamp}`,
      providerNumber: "JA4008123",
    });
    const amaDesignation =
      "Northwind Medical Education designates this enduring material for a maximum of 2 AMA PRA Category 1 Credits™.";
    await addCatalogueType(adminApi, {
      name: "AMA PRA Category 1 Credit™",
      singularName: "AMA PRA Category 1 Credit™",
      bodyId: body.id,
      profession: "Medicine",
      accreditationStatement: ACCREDITATION,
      designationStatement: amaDesignation,
    });
    await addCatalogueType(adminApi, {
      name: "contact hours",
      bodyId: body.id,
      profession: "Nursing",
      licenceRequired: true,
    });
    const creditSection = accreditation.getByRole("region", { name: "Credit", exact: true });
    await expect(creditSection.getByTestId("credit-types-summary")).toHaveText(
      "This course offers no credit. Add the credit types it offers.",
    );
    await creditSection.getByRole("button", { name: "Edit credit types" }).click();
    const types = page.getByRole("dialog", { name: "Credit types" });
    await expect(types.getByRole("link", { name: "Manage the credit catalogue" })).toHaveAttribute(
      "href",
      "/admin/settings/credit-catalogue",
    );
    const typeRows = types.getByTestId("credit-type-row");
    await types.getByRole("button", { name: "Add credit type" }).click();
    // A row without a type is refused by the same rule the server runs.
    await types.getByRole("button", { name: "Save credit types" }).click();
    await expect(typeRows.nth(0)).toContainText("Choose a credit type");
    await typeRows
      .nth(0)
      .getByLabel("Credit type", { exact: true })
      .selectOption({ label: `AMA PRA Category 1 Credit™ — ${body.name}` });
    // The catalogue names the body and its number; the designation starts from the catalogue's.
    await expect(typeRows.nth(0)).toContainText(`${body.name} · Provider no. JA4008123 · Medicine`);
    await expect(typeRows.nth(0).getByLabel(/Designation statement/)).toHaveValue(amaDesignation);
    await typeRows.nth(0).getByLabel("Amount").fill("1.234");
    await typeRows
      .nth(0)
      .getByLabel(/Claim step/)
      .fill("0.3");
    await types.getByRole("button", { name: "Add credit type" }).click();
    await typeRows
      .nth(1)
      .getByLabel("Credit type", { exact: true })
      .selectOption({ label: `contact hours — ${body.name}` });
    await typeRows.nth(1).getByLabel("Amount").fill("1");
    await types.getByRole("button", { name: "Save credit types" }).click();
    await expect(typeRows.nth(0)).toContainText("Amount can have at most 2 decimals");
    await typeRows.nth(0).getByLabel("Amount").fill("2");
    await types.getByRole("button", { name: "Save credit types" }).click();
    await expect(typeRows.nth(0)).toContainText("The claim step must divide 2");
    await typeRows
      .nth(0)
      .getByLabel(/Claim step/)
      .fill("0.25");
    // The wording the certificates will print, singular for exactly 1.
    await expect(typeRows.nth(0)).toContainText("prints “2 AMA PRA Category 1 Credit™”");
    await expect(typeRows.nth(1)).toContainText("prints “1 contact hour”");
    await screens(page, "credit-admin-credit-types-dialog", () =>
      types.evaluate((dialog) => dialog.scrollTo(0, 0)),
    );
    await types.getByRole("button", { name: "Save credit types" }).click();
    await expectToast(page, "Credit types saved");
    await expect(types).toBeHidden();
    await dismissToast(page);
    await expect(creditSection.getByTestId("credit-type-summary")).toHaveText([
      new RegExp(
        `Up to 2 AMA PRA Category 1 Credit™\\s*${body.name} · Provider no\\. JA4008123 · Claimed in steps of 0\\.25`,
      ),
      new RegExp(
        `Up to 1 contact hour\\s*${body.name} · Provider no\\. JA4008123 · Claimed whole · Licence required`,
      ),
    ]);
    // The sidebar shows the credit offered, and sets the completion rule only.
    await expect(page.getByTestId("course-settings-card")).toContainText(
      "Up to 2 AMA PRA Category 1 Credit™ · Up to 1 contact hour",
    );
    const offered = (await (await adminApi.get(`/api/courses/${course.id}`)).json()) as {
      creditTypes: { id: string; name: string }[];
    };
    const ama = offered.creditTypes.find((t) => t.name === "AMA PRA Category 1 Credit™")!;

    // What the certificate prints: sponsor, fields of study, the official and their signature.
    await accreditation.getByRole("button", { name: "Certificate details" }).click();
    const credit = page.getByRole("dialog", { name: "Certificate details" });
    await credit.getByLabel("Sponsor name").fill("Northwind Medical Education");
    await credit.getByLabel("Sponsor address").fill("12 Harbor Road, Portland, ME 04101");
    await credit.getByLabel("Delivery method").fill("Internet-based enduring material");
    const fieldRows = credit.getByTestId("field-of-study-row");
    await credit.getByRole("button", { name: "Add field of study" }).click();
    await fieldRows
      .nth(0)
      .getByRole("textbox", { name: "Field", exact: true })
      .fill("Pain management");
    await fieldRows.nth(0).getByRole("textbox", { name: "Credits", exact: true }).fill("1.5");
    await credit.getByRole("button", { name: "Add field of study" }).click();
    await fieldRows
      .nth(1)
      .getByRole("textbox", { name: "Field", exact: true })
      .fill("Medical ethics");
    await fieldRows.nth(1).getByRole("textbox", { name: "Credits", exact: true }).fill("0.5");
    await expect(credit.getByTestId("fields-total")).toHaveText("Total: 2 credits");
    await credit
      .getByRole("textbox", { name: "Name (optional)", exact: true })
      .fill("Dr. Margaret Chen");
    await credit
      .getByRole("textbox", { name: "Title (optional)", exact: true })
      .fill("Director of Continuing Medical Education");
    await credit.getByLabel("Signature image").setInputFiles("test-fixtures/sample-signature.png");
    await expectToast(page, "Signature uploaded");
    await expect(credit.getByRole("img", { name: "Signature of Dr. Margaret Chen" })).toBeVisible();
    await dismissToast(page);
    await expect(credit).toBeVisible();
    await screens(page, "credit-admin-credit-dialog", () =>
      credit.getByRole("img", { name: "Signature of Dr. Margaret Chen" }).scrollIntoViewIfNeeded(),
    );
    await credit.getByRole("button", { name: "Save settings" }).click();
    await expectToast(page, "Certificate details saved");
    await expect(credit).toBeHidden();
    await dismissToast(page);
    await expect(accreditation.getByTestId("credit-summary").getByRole("definition")).toHaveText([
      "Northwind Medical Education",
      "Internet-based enduring material",
    ]);
    await expect(accreditation.getByTestId("fields-of-study").getByRole("listitem")).toHaveText([
      /Pain management\s*1\.5 credits/,
      /Medical ethics\s*0\.5 credits/,
    ]);
    await expect(
      accreditation.getByText("Dr. Margaret Chen, Director of Continuing Medical Education"),
    ).toBeVisible();
    await expect(
      accreditation.getByRole("img", { name: "Signature of Dr. Margaret Chen" }),
    ).toBeVisible();

    // The evaluation: the default template and one more rating item, placed before the comments.
    await accreditation.getByRole("button", { name: "Edit evaluation" }).click();
    const evaluation = page.getByRole("dialog", { name: "Edit evaluation" });
    const items = evaluation.getByTestId("evaluation-item-row");
    await expect(items).toHaveCount(5);
    await evaluation.getByRole("button", { name: "Add rating item" }).click();
    await expect(items).toHaveCount(6);
    await items.nth(5).getByLabel("Statement to rate").fill(NEW_ITEM);
    await evaluation
      .getByRole("button", { name: `Move item 6, “${NEW_ITEM.slice(0, 40)}…” up` })
      .click();
    await expect(items.nth(4).getByLabel("Statement to rate")).toHaveValue(NEW_ITEM);
    await expect(items.nth(5).getByLabel("Question")).toHaveValue("Comments and suggestions");
    await screens(page, "credit-admin-evaluation-dialog", () =>
      items.nth(4).scrollIntoViewIfNeeded(),
    );
    await evaluation.getByRole("button", { name: "Save evaluation" }).click();
    await expectToast(page, "Evaluation saved");
    await expect(evaluation).toBeHidden();
    await dismissToast(page);
    await expect(accreditation.getByTestId("evaluation-summary")).toHaveText(
      "5 rating items and 1 text item; learners answer it before the certificate.",
    );
    await screens(page, "credit-admin-course");

    // Two learners take every step through the API, each from their own client.
    const learners = [
      await createLearner({ name: "Noor Haddad" }),
      await createLearner({ name: "Tomás Reyes" }),
    ];
    // What the credit report should say of each learner, from the server's own answers.
    const expected = new Map<string, Record<string, string>>();
    for (const [n, learner] of learners.entries()) {
      const enrollment = await enroll(learner.id, course.id);
      const api = await learnerApi(playwright, baseURL!, learner, n);
      const ack = await api.post(`/api/courses/${course.id}/acknowledge`);
      expect(ack.status(), await ack.text()).toBe(200);
      expect(await ack.json()).toEqual({ acknowledgedAt: expect.any(String) });
      // The evaluation opens only after the modules.
      const early = await api.post(`/api/courses/${course.id}/evaluation`, {
        data: { answers: [] },
      });
      expect(early.status(), await early.text()).toBe(409);
      expect(await early.json()).toMatchObject({ message: "Complete modules first." });
      for (const module of course.modules) {
        const res = await api.post("/api/progress/update", {
          data: { userId: learner.id, courseId: course.id, moduleId: module.id, progress: 0 },
        });
        expect(res.status(), await res.text()).toBe(200);
      }
      const form = await api.get(`/api/courses/${course.id}/evaluation`);
      expect(form.status(), await form.text()).toBe(200);
      const { items: asked, submitted } = (await form.json()) as {
        items: { id: string; kind: "likert" | "text"; text: string }[];
        submitted: boolean;
      };
      expect(submitted).toBe(false);
      expect(asked.map((i) => i.text)).toEqual([
        "The learning objectives were met.",
        "The content is relevant to my practice.",
        "The content was fair, balanced and free of commercial bias.",
        "The faculty were effective.",
        NEW_ITEM,
        "Comments and suggestions",
      ]);
      // The first learner agrees and comments; the second strongly agrees and leaves the comment blank.
      const answers = asked.map((item) => ({
        itemId: item.id,
        value: item.kind === "likert" ? 4 + n : n === 0 ? COMMENT : "",
      }));
      const evaluated = await api.post(`/api/courses/${course.id}/evaluation`, {
        data: { answers },
      });
      expect(evaluated.status(), await evaluated.text()).toBe(201);
      const attested = await api.post(`/api/courses/${course.id}/attest`, {
        data: { statement: STATEMENT, claims: [{ creditTypeId: ama.id, amount: 1.75 }] },
      });
      expect(attested.status(), await attested.text()).toBe(200);
      const attestation = (await attested.json()) as { attestedAt: string };
      expect(attestation).toMatchObject({
        creditsClaimed: 1.75,
        credits: [{ name: "AMA PRA Category 1 Credit™", text: "1.75 AMA PRA Category 1 Credit™" }],
      });
      const completion = await api.get(`/api/courses/${course.id}/completion`);
      expect(await completion.json()).toMatchObject({ isCompleted: true, next: null });
      const mine = await api.get("/api/certificates/mine");
      expect(mine.status(), await mine.text()).toBe(200);
      const certificate = (
        (await mine.json()) as { courseId: string; code: string; completedAt: string }[]
      ).find((c) => c.courseId === course.id);
      expect(certificate, `${learner.name}'s certificate`).toBeTruthy();
      expected.set(learner.email, {
        "Enrolled on": enrollment.createdAt.slice(0, 10),
        "Completed on": certificate!.completedAt.slice(0, 10),
        "Attested on": attestation.attestedAt.slice(0, 10),
        "Certificate code": certificate!.code,
      });
      await api.dispose();
    }

    // The results, anonymous: means, distributions and the comment.
    await accreditation.getByRole("link", { name: "Evaluation results" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/courses/${course.id}/evaluation-results$`));
    await expect(page.getByRole("heading", { level: 1, name: "Evaluation results" })).toBeVisible();
    await expect(page.getByTestId("evaluation-responses")).toHaveText(
      `${course.title} · 2 responses · anonymous`,
    );
    const results = page.getByTestId("evaluation-result-item");
    await expect(results).toHaveCount(6);
    const rated = results.filter({ hasText: NEW_ITEM });
    await expect(rated).toContainText("Answered by 2 of 2");
    await expect(rated.getByTestId("likert-mean")).toHaveText("4.5");
    await expect(rated.getByTestId("likert-bars").getByRole("listitem")).toHaveText([
      /1 Strongly disagree\s*0 \(0%\)/,
      /2 Disagree\s*0 \(0%\)/,
      /3 Neutral\s*0 \(0%\)/,
      /4 Agree\s*1 \(50%\)/,
      /5 Strongly agree\s*1 \(50%\)/,
    ]);
    await expect(results.getByTestId("likert-mean")).toHaveText(Array(5).fill("4.5"));
    const comments = results.filter({ hasText: "Comments and suggestions" });
    await expect(comments).toContainText("Answered by 1 of 2");
    await expect(comments.getByTestId("evaluation-comments").getByRole("listitem")).toHaveText([
      COMMENT,
    ]);
    await screens(page, "credit-admin-evaluation-results");

    const evaluationDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const evaluationCsv = await evaluationDownload;
    expect(evaluationCsv.suggestedFilename()).toMatch(/^evaluation-\d{4}-\d{2}-\d{2}\.csv$/);
    const evaluationRows = await readCsv(evaluationCsv);
    expect(evaluationRows.header).toEqual([
      "Item",
      "Kind",
      "Answered",
      "Mean",
      "Strongly disagree",
      "Disagree",
      "Neutral",
      "Agree",
      "Strongly agree",
      "Comment",
    ]);
    expect(evaluationRows.records).toHaveLength(6);
    expect(evaluationRows.records[2]).toEqual({
      Item: "The content was fair, balanced and free of commercial bias.",
      Kind: "Rating",
      Answered: "2",
      Mean: "4.5",
      "Strongly disagree": "0",
      Disagree: "0",
      Neutral: "0",
      Agree: "1",
      "Strongly agree": "1",
      Comment: "",
    });
    expect(evaluationRows.records[4]).toMatchObject({
      Item: NEW_ITEM,
      Kind: "Rating",
      Mean: "4.5",
    });
    expect(evaluationRows.records[5]).toMatchObject({
      Item: "Comments and suggestions",
      Kind: "Comment",
      Comment: COMMENT,
    });

    // The credit report: each learner's claim, and each field's credits scaled to it.
    await page.getByRole("link", { name: course.title }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/courses/${course.id}$`));
    const reportDownload = page.waitForEvent("download");
    await accreditation.getByRole("link", { name: "Download credit report" }).click();
    const reportCsv = await reportDownload;
    expect(reportCsv.suggestedFilename()).toMatch(
      /^credit-report-[A-Za-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const report = await readCsv(reportCsv);
    expect(report.header).toEqual([
      "Learner name",
      "Email",
      "Licence type",
      "Licence number",
      "Issuing state or board",
      "NPN",
      "Enrolled on",
      "Completed on",
      "Attested on",
      "Credit type",
      "Credits claimed",
      "Accrediting body",
      "Provider number",
      "Credits: Pain management",
      "Credits: Medical ethics",
      "Exam score",
      "Certificate code",
    ]);
    expect(report.records).toHaveLength(2);
    for (const learner of learners) {
      const row = report.records.find((r) => r.Email === learner.email);
      expect(row, `${learner.name}'s row`).toEqual({
        "Learner name": learner.name,
        Email: learner.email,
        "Licence type": "",
        "Licence number": "",
        "Issuing state or board": "",
        NPN: "",
        "Credit type": "AMA PRA Category 1 Credit™",
        "Credits claimed": "1.75",
        "Accrediting body": body.name,
        "Provider number": "JA4008123",
        "Credits: Pain management": "1.31",
        "Credits: Medical ethics": "0.44",
        "Exam score": "",
        ...expected.get(learner.email),
      });
    }
  });
});

/** A learner's own API client, signed in from an address of their own. */
async function learnerApi(
  playwright: PlaywrightWorkerArgs["playwright"],
  baseURL: string,
  learner: LearnerAccount,
  n: number,
): Promise<APIRequestContext> {
  const info = test.info();
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: fromAddress(
      info.project.name,
      ...info.titlePath,
      info.repeatEachIndex,
      `learner api ${n}`,
    ),
  });
  const login = await api.post("/api/auth/login", {
    data: { email: learner.email, password: learner.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}
