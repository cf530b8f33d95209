import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import {
  type AuditEventsPage,
  type Certificate,
  type CourseReporting,
  EMPTY_ACTIVITY_DETAILS,
  EMPTY_REGULATOR_IDS,
  IDENTIFIER_MESSAGES,
  type MyRegulatorIds,
  type RegulatorIdsInput,
  type RegulatorOverview,
  type ReportClaim,
  type ReportFile,
} from "../../../contract";
import {
  accme,
  creditOffer,
  creditType,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
} from "../../testing/learning";
import { leafParts, outboxMessages } from "../../testing/mail";
import { useTestApp } from "../../testing/test-app";
import { attestationCredits, attestations } from "../attestations/attestations.table";
import { reportFiles } from "./reporting.table";

const PARS_ID = "201234567";
const ACTIVITY = accme({ evaluationRequired: false, acknowledgementRequired: false });
/** AMA credit reporting to PARS, and nurses' contact hours reporting nowhere. */
const OFFER = creditOffer(
  [
    creditType({ claimStep: null, amount: 1.5 }),
    creditType({ name: "contact hours", accreditingBody: "ANCC", claimStep: null, amount: 1 }),
  ],
  { ACCME: "PN-1", ANCC: "P-2" },
);
const PHYSICIAN: RegulatorIdsInput = {
  ...EMPTY_REGULATOR_IDS,
  certifyingBoard: "",
  firstName: "Ada",
  lastName: "Byron",
  birthMonth: 2,
  birthDay: 29,
  licenceState: "or",
  licenceNumber: "MD204518",
  npi: "1234567893",
};
const today = () => new Date().toISOString().slice(0, 10);
/** What a claim of the PARS-reported credit asks, the provider being the portal (no profile set). */
const CONSENT =
  "I agree that Credo reports my completion of this activity to ACCME PARS with the identifiers I have given.";
const PARS_FILES = "/api/admin/reports/regulators/pars/files";

/** The records of a tab-delimited PARS activity file, each field counted. */
const tabRecords = (bytes: Buffer) =>
  parse(bytes, {
    encoding: "latin1",
    delimiter: "\t",
    record_delimiter: "\r\n",
    quote: false,
  }) as string[][];

/** The learner rows of a PARS learner template, read by SheetJS (the header is row 2). */
const records = (bytes: Buffer) => {
  const book = XLSX.read(bytes, { type: "buffer" });
  return XLSX.utils
    .sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, {
      header: 1,
      raw: false,
      defval: "",
    })
    .slice(2);
};

describe("regulator reporting", () => {
  const { ctx, video, clock, setup, certificatesOf } = useCreditClaim();

  const putReporting = (cookie: string, courseId: string, payload: unknown) =>
    call(ctx, "PUT", `/api/courses/${courseId}/reporting`, { cookie, payload });

  /** The course of `setup`, its AMA type reporting to PARS with its activity ID. */
  async function parsCourse() {
    const s = await setup(ACTIVITY, 1, OFFER);
    const ama = s.types[0]!;
    const saved = await putReporting(s.adminCookie, s.course.id, {
      types: [{ creditTypeId: ama.id, regulators: [{ regulator: "pars", activityId: PARS_ID }] }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return { ...s, ama: ama.id };
  }

  /** A learner of the course who completes it and claims the AMA credit; the raw answer. */
  async function learnerClaims(
    s: Awaited<ReturnType<typeof parsCourse>>,
    name: string,
    ids: RegulatorIdsInput | null,
  ) {
    const user = await quickLearner(ctx, { name });
    const cookie = await signInAs(ctx, user);
    await enrollViaApi(ctx, s.adminCookie, user.id, s.course.id);
    await completeViaApi(ctx, cookie, user.id, s.course, 1);
    if (ids) {
      const saved = await call(ctx, "PUT", "/api/me/regulator-ids", { cookie, payload: ids });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const attested = await call(ctx, "POST", s.url("attest"), {
      cookie,
      payload: {
        statement: STATEMENT,
        claims: [{ creditTypeId: s.ama, amount: null }],
        reportingConsent: true,
      },
    });
    return { user, cookie, attested };
  }

  const auditTypes = async (cookie: string, type: string) =>
    (
      (
        await call(ctx, "GET", `/api/audit/events?type=${type}`, { cookie })
      ).json() as AuditEventsPage
    ).events;

  it("keeps whom a course reports to, and refuses to publish it without the identifiers or the attestation", async () => {
    const admin = await quickAdmin(ctx);
    const cookie = await signInAs(ctx, admin);
    const draft = await buildPublishedCourse(ctx, cookie, {
      video: await video(cookie),
      modules: 1,
      draft: true,
    });
    const offered = await call(ctx, "PUT", `/api/courses/${draft.id}/credit`, {
      cookie,
      payload: OFFER,
    });
    const [ama, contact] = (offered.json() as { creditTypes: { id: string }[] }).creditTypes as [
      { id: string },
      { id: string },
    ];
    const publish = () =>
      call(
        ctx,
        "PATCH",
        `/api/courses/${draft.id}/publish?confirm=manual-completion&creditLengthReason=Case%20studies%20and%20reading`,
        { cookie },
      );

    expect((await call(ctx, "GET", "/api/courses/nope/reporting", { cookie })).statusCode).toBe(
      404,
    );
    const unknownType = await putReporting(cookie, draft.id, {
      types: [{ creditTypeId: "not-this-course", regulators: [] }],
    });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json()).toMatchObject({ code: "reporting.credit_type_not_found" });
    const badUan = await putReporting(cookie, draft.id, {
      types: [
        {
          creditTypeId: contact.id,
          regulators: [{ regulator: "cpe_monitor", activityId: "0197" }],
        },
      ],
    });
    expect(badUan.statusCode).toBe(400);
    expect(badUan.json()).toMatchObject({
      code: "validation.invalid_body",
      message: IDENTIFIER_MESSAGES.uan,
      path: "types.0.regulators.0.activityId",
    });
    const unknownCourse = await putReporting(cookie, "nope", { types: [] });
    expect(unknownCourse.statusCode).toBe(404);

    // Reporting to PARS before its activity ID is known is kept, but holds the course back.
    const pending = await putReporting(cookie, draft.id, {
      types: [{ creditTypeId: ama.id, regulators: [{ regulator: "pars", activityId: "" }] }],
    });
    expect(pending.statusCode, pending.body).toBe(200);
    expect((pending.json() as CourseReporting).types).toMatchObject([
      {
        creditTypeId: ama.id,
        regulators: [{ regulator: "pars", activityId: "", providerId: "" }],
      },
      { creditTypeId: contact.id, regulators: [] },
    ]);
    const missingId = await publish();
    expect(missingId.statusCode).toBe(409);
    expect(missingId.json()).toEqual({
      code: "reporting.activity_id_missing",
      message:
        "AMA PRA Category 1 Credit™ reports to ACCME PARS: enter its PARS activity ID under Reporting.",
    });
    await putReporting(cookie, draft.id, {
      types: [{ creditTypeId: ama.id, regulators: [{ regulator: "pars", activityId: PARS_ID }] }],
    });
    const noAttestation = await publish();
    expect(noAttestation.statusCode).toBe(409);
    expect(noAttestation.json()).toMatchObject({ code: "reporting.attestation_required" });
    await call(ctx, "PUT", `/api/courses/${draft.id}/activity`, { cookie, payload: ACTIVITY });
    const published = await publish();
    expect(published.statusCode, published.body).toBe(200);
    // The type left out of an edit keeps its regulators.
    await putReporting(cookie, draft.id, { types: [{ creditTypeId: contact.id, regulators: [] }] });
    const kept = (
      await call(ctx, "GET", `/api/courses/${draft.id}/reporting`, { cookie })
    ).json() as CourseReporting;
    expect(kept.types[0]!.regulators).toEqual([
      {
        regulator: "pars",
        activityId: PARS_ID,
        providerId: "",
        activityFormat: "",
        providership: "",
        commercialSupport: null,
        details: EMPTY_ACTIVITY_DETAILS,
      },
    ]);
    const events = await auditTypes(cookie, "reporting.settings_updated");
    expect(events.map((e) => e.summary)).toEqual([
      "Changed the regulator reporting: AMA PRA Category 1 Credit™: ACCME PARS from “(no identifier)” to “201234567”",
      "Changed the regulator reporting: AMA PRA Category 1 Credit™: ACCME PARS from none to “(no identifier)”",
    ]);
  });

  it("asks the learner once for what the regulator needs, checks it, and copies it into the claim", async () => {
    const s = await parsCourse();
    const mine = (query = "") =>
      call(ctx, "GET", `/api/me/regulator-ids${query}`, { cookie: s.cookie });
    expect((await mine(`?courseId=${s.course.id}`)).json()).toEqual({
      ids: EMPTY_REGULATOR_IDS,
      course: [{ regulator: "pars", creditTypeIds: [s.ama] }],
      consent: CONSENT,
    });
    expect((await mine("?courseId=not-mine")).statusCode).toBe(404);
    // The learner's own identifiers: an administrator has no such profile.
    expect(
      (await call(ctx, "GET", "/api/me/regulator-ids", { cookie: s.adminCookie })).statusCode,
    ).toBe(403);
    const wrongNpi = await call(ctx, "PUT", "/api/me/regulator-ids", {
      cookie: s.cookie,
      payload: { ...PHYSICIAN, npi: "1234567890", birthMonth: 2, birthDay: 30 },
    });
    expect(wrongNpi.statusCode).toBe(400);
    expect(wrongNpi.json()).toMatchObject({ code: "validation.invalid_body" });

    await completeViaApi(ctx, s.cookie, s.learner.id, s.course, 1);
    const attest = (reportingConsent?: boolean) =>
      call(ctx, "POST", s.url("attest"), {
        cookie: s.cookie,
        payload: {
          statement: STATEMENT,
          claims: [{ creditTypeId: s.ama, amount: null }],
          reportingConsent,
        },
      });
    const refused = await attest(true);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: "attestation.regulator_ids_missing",
      message:
        "Your credit is reported to ACCME PARS: add your first name, last name, month and day of birth, state licence or certifying board ID first.",
    });
    const saved = await call(ctx, "PUT", "/api/me/regulator-ids", {
      cookie: s.cookie,
      payload: PHYSICIAN,
    });
    expect((saved.json() as MyRegulatorIds).ids).toMatchObject({ licenceState: "OR" });
    // A reported claim needs the learner's consent to the reporting: without it nothing is
    // recorded.
    for (const consent of [undefined, false]) {
      const unconsented = await attest(consent);
      expect(unconsented.statusCode).toBe(400);
      expect(unconsented.json()).toEqual({
        code: "attestation.reporting_consent_required",
        message:
          "Your credit is reported to ACCME PARS: agree to the reporting before claiming it.",
      });
    }
    expect(await ctx.database.db.select().from(attestations)).toEqual([]);
    expect((await attest(true)).statusCode).toBe(200);

    // The claim keeps the identifiers as they were; the profile changes on its own.
    await call(ctx, "PUT", "/api/me/regulator-ids", {
      cookie: s.cookie,
      payload: { ...PHYSICIAN, lastName: "Lovelace" },
    });
    const [row] = await ctx.database.db.select().from(attestationCredits);
    expect(row!.regulatorIds).toEqual({
      regulators: ["pars"],
      ids: { ...PHYSICIAN, licenceState: "OR" },
      consent: CONSENT,
    });
    // A credit record: what was reported cannot be rewritten.
    await expect(
      ctx.database.db.update(attestationCredits).set({ regulatorIds: null }),
    ).rejects.toThrow();
    // The certificate prints the licence, masked on its public verification; the NPI and
    // the birth date are never on either.
    const [certificate] = (await certificatesOf(s.cookie)) as [Certificate];
    expect(certificate.credit!.licence).toMatchObject({ licenceNumber: "MD204518" });
    const verified = await call(ctx, "GET", `/api/certificates/verify/${certificate.code}`);
    expect(verified.body).not.toContain("MD204518");
    for (const text of [JSON.stringify(certificate), verified.body]) {
      for (const secret of ["1234567893", "Lovelace", "birthDay"]) {
        expect(text).not.toContain(secret);
      }
    }
    const pars = (
      await call(ctx, "GET", "/api/admin/reports/regulators/pars/claims", {
        cookie: s.adminCookie,
      })
    ).json() as ReportClaim[];
    // The administrators' claims list shows the consent kept with the claim.
    expect(pars).toMatchObject([
      {
        status: "not_reported",
        problem: null,
        creditName: "AMA PRA Category 1 Credit™",
        consent: CONSENT,
      },
    ]);
  });

  it("generates a file, records its submission, then reports only what is new and regenerates any file exactly", async () => {
    // A physician who claimed before the course reported to PARS: listed apart, never dropped.
    const s = await setup(ACTIVITY, 1, OFFER);
    const amaType = s.types[0]!;
    const before = { ...s, ama: amaType.id };
    const early = await learnerClaims(before, "Early Claimant", null);
    expect(early.attested.statusCode, early.attested.body).toBe(200);
    await putReporting(s.adminCookie, s.course.id, {
      types: [
        {
          creditTypeId: amaType.id,
          regulators: [
            {
              regulator: "pars",
              activityId: PARS_ID,
              details: { mocBoard: "ABIM", mocCreditType: "Medical Knowledge" },
            },
          ],
        },
      ],
    });
    const first = await learnerClaims(before, "Ada Byron", PHYSICIAN);
    expect(first.attested.statusCode, first.attested.body).toBe(200);

    const admin = s.adminCookie;
    const range = { courseId: s.course.id, from: today(), to: today() };
    const generate = (regulator = "pars", payload: object = range) =>
      call(ctx, "POST", `/api/admin/reports/regulators/${regulator}/files`, {
        cookie: admin,
        payload,
      });
    expect((await generate("cpe_monitor")).json()).toMatchObject({
      code: "reporting.course_not_reporting",
    });
    expect((await generate("pars", { ...range, courseId: "nope" })).statusCode).toBe(404);
    expect((await generate("pars", { ...range, from: "2026-02-30" })).json()).toMatchObject({
      code: "validation.invalid_body",
    });

    // Sent twice from one opening of the form (a double click): one file.
    const keyed = (payload: object) =>
      ctx.app.inject({
        method: "POST",
        url: `${PARS_FILES}`,
        headers: { cookie: admin, "idempotency-key": "generate-form-1" },
        payload,
      });
    const made = await keyed(range);
    expect(made.statusCode, made.body).toBe(200);
    expect((await keyed(range)).json()).toEqual(made.json());
    expect((await keyed({ ...range, from: "2020-01-01" })).json()).toMatchObject({
      code: "request.idempotency_key_reused",
    });
    const file = made.json() as ReportFile;
    expect(file).toMatchObject({ regulator: "pars", rowCount: 1, submittedAt: null });
    expect(file.refused).toEqual([
      expect.objectContaining({
        learnerName: "Early Claimant",
        reason:
          "The learner claimed this credit before it reported to ACCME PARS: no identifiers were given with the claim.",
      }),
    ]);
    const download = (id: string) =>
      call(ctx, "GET", `${PARS_FILES}/${id}/download`, { cookie: admin });
    const original = await download(file.id);
    expect(original.headers["content-type"]).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(original.headers["content-disposition"]).toBe(`attachment; filename="${file.fileName}"`);
    expect(file.fileName).toMatch(/^pars-learners-.+\.xlsx$/);
    expect(records(original.rawPayload)).toEqual([
      [
        "Add",
        PARS_ID,
        expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/),
        "Ada",
        "Byron",
        "02/29",
        "Oregon",
        "MD204518",
        "1.5",
        "",
        "",
        "",
        "",
        "",
        "",
      ],
    ]);

    const claims = async () =>
      (
        (
          await call(
            ctx,
            "GET",
            `/api/admin/reports/regulators/pars/claims?courseId=${s.course.id}`,
            {
              cookie: admin,
            },
          )
        ).json() as ReportClaim[]
      ).sort((a, b) => a.learnerName.localeCompare(b.learnerName));
    // Generated is not yet reported: only a submission says it was uploaded.
    expect((await claims()).map((c) => [c.learnerName, c.status])).toEqual([
      ["Ada Byron", "not_reported"],
      ["Early Claimant", "not_reported"],
    ]);
    const submit = (id: string, cookie = admin) =>
      call(ctx, "POST", `${PARS_FILES}/${id}/submit`, { cookie });
    const submitted = await submit(file.id);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect((submitted.json() as ReportFile).submittedAt).toEqual(expect.any(String));
    // The same administrator's repeat (a double click) answers the first marking.
    const repeated = await submit(file.id);
    expect([repeated.statusCode, repeated.json()]).toEqual([200, submitted.json()]);
    expect((await submit("nope")).statusCode).toBe(404);
    expect((await download("nope")).json()).toMatchObject({ code: "reporting.file_not_found" });
    const reported = await claims();
    expect(reported[0]).toMatchObject({
      learnerName: "Ada Byron",
      status: "reported",
      fileId: file.id,
      fileName: file.fileName,
      reportedOn: expect.any(String),
      waitingDays: null,
    });
    expect(reported[1]).toMatchObject({ status: "not_reported", problem: expect.any(String) });
    // Nothing new: the reported claim is not sent again.
    expect((await generate()).json()).toMatchObject({ code: "reporting.nothing_to_report" });

    // Another learner completes: the next file holds only them.
    const second = await learnerClaims(before, "Grace Hopper", {
      ...PHYSICIAN,
      firstName: "Grace",
      lastName: "Hopper",
      licenceState: "",
      licenceNumber: "",
      npi: "",
      certifyingBoard: "ABIM",
      boardId: "778899",
    });
    expect(second.attested.statusCode, second.attested.body).toBe(200);
    const delta = (await generate()).json() as ReportFile;
    expect(delta.rowCount).toBe(1);
    const deltaRows = records((await download(delta.id)).rawPayload);
    expect(deltaRows.map((r) => [r[0], r[3], r[4], r[9], r[10], r[12]])).toEqual([
      ["Add", "Grace", "Hopper", "ABIM", "778899", "Medical Knowledge"],
    ]);
    // The first file, downloaded again, is byte for byte the one first generated; a stored
    // file never changes.
    await expect(
      ctx.database.db.update(reportFiles).set({ rowCount: 5 }).where(eq(reportFiles.id, file.id)),
    ).rejects.toThrow();
    expect((await download(file.id)).rawPayload.equals(original.rawPayload)).toBe(true);
    const listed = (
      await call(ctx, "GET", `${PARS_FILES}?courseId=${s.course.id}`, { cookie: admin })
    ).json() as ReportFile[];
    expect(listed.map((f) => [f.id, f.submittedAt !== null])).toEqual([
      [delta.id, false],
      [file.id, true],
    ]);

    // Claims waiting past the regulator's deadline (PARS: 30 days by default).
    const overview = async () =>
      (
        (
          await call(ctx, "GET", "/api/admin/reports/regulators", { cookie: admin })
        ).json() as RegulatorOverview[]
      ).find((o) => o.regulator === "pars")!;
    expect(await overview()).toMatchObject({ deadlineDays: 30, waiting: 2, overdue: 0 });
    clock.advanceDays(31);
    expect(await overview()).toMatchObject({ waiting: 2, overdue: 2 });
    // The administrators' weekly digest lists them, once a week however often mail is swept.
    expect((await ctx.app.mailJobs.sweep()).reminders.digests).toBe(1);
    expect((await ctx.app.mailJobs.sweep()).reminders.digests).toBe(0);
    const digests = outboxMessages(join(ctx.dataDir, "outbox")).filter((m) =>
      m.mime.headers.subject?.includes("waiting to be reported"),
    );
    expect(digests.map((m) => [m.mime.headers.to, m.mime.headers.subject])).toEqual([
      [expect.stringContaining(s.admin.email), "2 claims waiting to be reported to regulators"],
    ]);
    const digestText = leafParts(digests[0]!.mime)
      .find((p) => p.contentType.startsWith("text/plain"))!
      .body.toString("utf8");
    expect(digestText).toContain("ACCME PARS (report within 30 days): 2 claims");
    expect(digestText).toContain("Grace Hopper");
    expect(digestText).toContain("http://localhost:5000/admin/reporting");
    const deadline = (payload: object) =>
      call(ctx, "PUT", "/api/admin/reports/regulators/pars", { cookie: admin, payload });
    expect((await deadline({ deadlineDays: 0 })).statusCode).toBe(400);
    expect((await deadline({ deadlineDays: 45 })).json()).toMatchObject({
      deadlineDays: 45,
      overdue: 0,
    });

    expect((await auditTypes(admin, "report_file.generated")).map((e) => e.summary)).toEqual([
      `Generated the report file ${delta.fileName} (1 row)`,
      `Generated the report file ${file.fileName} (1 row)`,
    ]);
    // Marked once, though asked twice: the repeat recorded nothing.
    expect((await auditTypes(admin, "report_file.submitted")).map((e) => e.summary)).toEqual([
      `Marked as submitted the report file ${file.fileName} (1 row)`,
    ]);
    expect((await auditTypes(admin, "regulator.deadline_updated"))[0]!.summary).toBe(
      "Set the reporting deadline of ACCME PARS to 45 days",
    );

    // Another administrator (after the digest, which goes to every administrator) marking it again is told it already is.
    const colleague = await signInAs(ctx, await quickAdmin(ctx));
    expect((await submit(file.id, colleague)).json()).toMatchObject({
      code: "reporting.already_submitted",
    });

    // The activity's PARS ID corrected: the reported row is deleted as it was written, then
    // added anew; the unsubmitted one is only added (ACCME's template: Record Action Delete).
    const corrected = "201234568";
    const recorrect = await putReporting(admin, s.course.id, {
      types: [
        {
          creditTypeId: amaType.id,
          regulators: [
            {
              regulator: "pars",
              activityId: corrected,
              details: { mocBoard: "ABIM", mocCreditType: "Medical Knowledge" },
            },
          ],
        },
      ],
    });
    expect(recorrect.statusCode, recorrect.body).toBe(200);
    expect((await claims()).map((c) => [c.learnerName, c.status])).toEqual([
      ["Ada Byron", "changed"],
      ["Early Claimant", "not_reported"],
      ["Grace Hopper", "not_reported"],
    ]);
    const change = (await generate()).json() as ReportFile;
    expect(change.rowCount).toBe(3);
    const changeRows = records((await download(change.id)).rawPayload);
    // Withdrawals come first, so PARS deletes the old row before it adds the new one.
    expect(changeRows[0]!.slice(0, 4)).toEqual(["Delete", PARS_ID, expect.any(String), "Ada"]);
    expect(
      changeRows
        .slice(1)
        .map((r) => [r[0], r[1], r[3]])
        .sort(),
    ).toEqual([
      ["Add", corrected, "Ada"],
      ["Add", corrected, "Grace"],
    ]);
    // The deleted row is the one first uploaded, cell for cell but the action.
    expect(changeRows[0]!.slice(1)).toEqual(records(original.rawPayload)[0]!.slice(1));
    expect((await submit(change.id)).statusCode).toBe(200);

    // Ada's certificate revoked: her completion is withdrawn with a Delete row alone.
    const [certificate] = await certificatesOf(first.cookie);
    const revoked = await call(ctx, "POST", `/api/certificates/${certificate!.id}/revoke`, {
      cookie: admin,
      payload: { reason: "Completed by someone else" },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const withdrawal = (await generate()).json() as ReportFile;
    const withdrawalRows = records((await download(withdrawal.id)).rawPayload);
    expect(withdrawalRows.map((r) => [r[0], r[1], r[3]])).toEqual([["Delete", corrected, "Ada"]]);
    expect((await submit(withdrawal.id)).statusCode).toBe(200);
    expect((await generate()).json()).toMatchObject({ code: "reporting.nothing_to_report" });
  });
  it("writes the course's PARS activity record with its learner counts, refusing it while a required value is missing", async () => {
    const s = await setup(ACTIVITY, 1, OFFER);
    const [amaType, contactType] = [s.types[0]!, s.types[1]!];
    const admin = s.adminCookie;
    const generate = (payload: object) =>
      call(ctx, "POST", "/api/admin/reports/regulators/pars/activity-files", {
        cookie: admin,
        payload,
      });
    expect((await generate({ courseId: "nope" })).statusCode).toBe(404);
    expect((await generate({ courseId: s.course.id })).json()).toMatchObject({
      code: "reporting.course_not_reporting",
    });
    expect((await generate({ courseId: s.course.id, from: today() })).json()).toMatchObject({
      code: "validation.invalid_body",
      message: "Give both ends of the range, or neither",
      path: "to",
    });
    // Days swapped: said of the end day, in words.
    const swapped = await generate({ courseId: s.course.id, from: today(), to: "2020-01-01" });
    expect(swapped.statusCode).toBe(400);
    expect(swapped.json()).toEqual({
      code: "validation.invalid_body",
      message: "The start date must not be after the end date",
      path: "to",
    });
    const pars = (extra: object) =>
      putReporting(admin, s.course.id, {
        types: [
          {
            creditTypeId: amaType.id,
            regulators: [{ regulator: "pars", activityId: PARS_ID, ...extra }],
          },
        ],
      });
    // Only PARS keeps an activity record.
    const notPars = await putReporting(admin, s.course.id, {
      types: [
        {
          creditTypeId: contactType.id,
          regulators: [{ regulator: "cpe_monitor", activityId: "", providership: "direct" }],
        },
      ],
    });
    expect(notPars.json()).toMatchObject({ code: "validation.invalid_body" });
    expect((await pars({})).statusCode).toBe(200);
    // A missing value is named, never written as a guess.
    const incomplete = await generate({ courseId: s.course.id });
    expect(incomplete.statusCode).toBe(409);
    expect(incomplete.json()).toEqual({
      code: "reporting.activity_record_incomplete",
      message: `The PARS activity record cannot be written: AMA PRA Category 1 Credit™ (PARS activity ${PARS_ID}): Missing from the activity record: provider activity ID, activity type, providership, whether commercial support was received.`,
    });
    const saved = await pars({
      activityFormat: "IEM",
      providership: "joint",
      commercialSupport: false,
      details: { providerCode: "1001" },
    });
    expect((saved.json() as CourseReporting).types[0]!.regulators).toEqual([
      {
        regulator: "pars",
        activityId: PARS_ID,
        providerId: "",
        activityFormat: "IEM",
        providership: "joint",
        commercialSupport: false,
        details: { ...EMPTY_ACTIVITY_DETAILS, providerCode: "1001" },
      },
    ]);

    // A physician claims the AMA credit; another learner claims only the contact hours.
    const physician = await learnerClaims({ ...s, ama: amaType.id }, "Ada Byron", PHYSICIAN);
    expect(physician.attested.statusCode, physician.attested.body).toBe(200);
    const nurse = await learnerClaims({ ...s, ama: contactType.id }, "Florence Nightingale", null);
    expect(nurse.attested.statusCode, nurse.attested.body).toBe(200);

    // Sent twice from one opening of the form (a double click): one file.
    const keyed = (payload: object) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/admin/reports/regulators/pars/activity-files",
        headers: { cookie: admin, "idempotency-key": "activity-form-1" },
        payload,
      });
    const made = await keyed({ courseId: s.course.id });
    expect(made.statusCode, made.body).toBe(200);
    expect((await keyed({ courseId: s.course.id })).json()).toEqual(made.json());
    const activityFiles = await ctx.database.db
      .select()
      .from(reportFiles)
      .where(eq(reportFiles.kind, "activities"));
    expect(activityFiles).toHaveLength(1);
    const file = made.json() as ReportFile;
    // From the activity's start (its release date) to today.
    expect(file).toMatchObject({
      kind: "activities",
      regulator: "pars",
      rowCount: 1,
      refused: [],
      from: ACTIVITY.releaseDate,
      to: today(),
    });
    expect(file.fileName).toMatch(/^pars-activity-.+\.txt$/);
    const bytes = (await call(ctx, "GET", `${PARS_FILES}/${file.id}/download`, { cookie: admin }))
      .rawPayload;
    // Every field of the activity template, the supporter's blank (csv-parse counts them).
    const [record] = tabRecords(bytes);
    expect(record).toHaveLength(55);
    expect(record!.slice(0, 15)).toEqual([
      "Template D",
      PARS_ID,
      "1001",
      "2026",
      s.course.title,
      "01/01/2026",
      "",
      "",
      "",
      "Joint",
      "IEM",
      "1.5",
      "1",
      "1",
      "No",
    ]);
    // Counted over a range without completions: none of either.
    const past = (
      await generate({ courseId: s.course.id, from: "2026-01-01", to: "2026-01-02" })
    ).json() as ReportFile;
    const pastRows = tabRecords(
      (await call(ctx, "GET", `${PARS_FILES}/${past.id}/download`, { cookie: admin })).rawPayload,
    );
    expect(pastRows.map((r) => r.slice(12, 14))).toEqual([["0", "0"]]);
    // Generating an activity record reports no learner's claim.
    const claims = (
      await call(ctx, "GET", `/api/admin/reports/regulators/pars/claims?courseId=${s.course.id}`, {
        cookie: admin,
      })
    ).json() as ReportClaim[];
    expect(claims.map((c) => c.status)).toEqual(["not_reported"]);
    expect((await auditTypes(admin, "report_file.generated")).map((e) => e.summary)).toEqual([
      `Generated the report file ${past.fileName} (1 row)`,
      `Generated the report file ${file.fileName} (1 row)`,
    ]);
  });

  it("writes the CE Broker roster's parent provider and upload key from the settings into each download", async () => {
    const s = await setup(ACTIVITY, 1, OFFER);
    const admin = s.adminCookie;
    const contact = s.types[1]!;
    const saved = await putReporting(admin, s.course.id, {
      types: [
        {
          creditTypeId: contact.id,
          regulators: [
            {
              regulator: "ce_broker",
              activityId: "20-845123",
              providerId: "50-1234",
              details: { providerCode: "77", subjectArea: "GEN-1" },
            },
          ],
        },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const nurse = await learnerClaims({ ...s, ama: contact.id }, "Florence Nightingale", {
      ...PHYSICIAN,
      firstName: "Florence",
      lastName: "Nightingale",
      licenceState: "FL",
      licenceNumber: "RN9876543",
      profession: "RN",
    });
    expect(nurse.attested.statusCode, nurse.attested.body).toBe(200);
    const files = "/api/admin/reports/regulators/ce_broker/files";
    const made = await call(ctx, "POST", files, {
      cookie: admin,
      payload: { courseId: s.course.id, from: today(), to: today() },
    });
    expect(made.statusCode, made.body).toBe(200);
    const file = made.json() as ReportFile;
    expect(file.fileName).toMatch(/^ce-broker-roster-.+\.xml$/);
    const download = () => call(ctx, "GET", `${files}/${file.id}/download`, { cookie: admin });
    // Without the settings the roster cannot be uploaded: said, not downloaded half-made.
    expect((await download()).json()).toEqual({
      code: "reporting.connection_missing",
      message:
        "Enter the CE Broker parent provider ID, CE Broker upload key under Connection settings on the Reporting page first.",
    });
    const connect = (payload: object) =>
      call(ctx, "PUT", "/api/admin/reports/regulators/ce_broker/connection", {
        cookie: admin,
        payload,
      });
    expect((await connect({ username: "x" })).json()).toMatchObject({
      code: "reporting.connection_invalid",
    });
    const connected = await connect({ parentProviderId: "1234", uploadKey: "KEY&1" });
    expect(connected.json()).toMatchObject({ parentProviderId: "1234", secretSet: true });
    expect(connected.body).not.toContain("KEY&1");
    const read = (
      await call(ctx, "GET", "/api/admin/reports/regulators/ce_broker/connection", {
        cookie: admin,
      })
    ).json();
    expect(read).toEqual(connected.json());

    const roster = (bytes: Buffer) =>
      new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: "@",
        parseTagValue: false,
      }).parse(bytes.toString("utf8")).rosters;
    const first = roster((await download()).rawPayload);
    expect([first["@id_parent_provider"], first["@upload_key"]]).toEqual(["1234", "KEY&1"]);
    expect([first.roster.id_provider, first.roster.provider_course_code]).toEqual(["1234", "77"]);
    expect(first.roster.attendees.attendee).toMatchObject({
      licensee_profession: "RN",
      license: "RN9876543",
      cebroker_state: "FL",
      first_name: "Florence",
      last_name: "Nightingale",
    });
    // The stored file holds no credential; a changed setting is written into the next download,
    // the key left out keeping the one saved.
    const [stored] = await ctx.database.db
      .select()
      .from(reportFiles)
      .where(eq(reportFiles.id, file.id));
    expect(stored!.bytes.toString("utf8")).not.toContain("KEY&1");
    await connect({ parentProviderId: "5678" });
    const again = roster((await download()).rawPayload);
    expect([again["@id_parent_provider"], again["@upload_key"]]).toEqual(["5678", "KEY&1"]);
  });

  it("sends CPE Monitor each completion by its web service, keeps each answer and retries while it is unreachable", async () => {
    // A stand-in for CPE Monitor's SubmitCPEActivityJSON: records each request and answers as
    // the public integrations read it ({"status":"Accepted"} or an error_message), or 503.
    const requests: URL[] = [];
    let answer: (params: URLSearchParams) => [number, object] = () => [200, { status: "Accepted" }];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      requests.push(url);
      const [status, body] = answer(url.searchParams);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/service/cpemonitorservice.asmx`;
    try {
      const s = await setup(ACTIVITY, 1, OFFER);
      const admin = s.adminCookie;
      const uan = "0197-0000-26-105-H01-P";
      await putReporting(admin, s.course.id, {
        types: [
          {
            creditTypeId: s.types[0]!.id,
            regulators: [{ regulator: "cpe_monitor", activityId: uan }],
          },
        ],
      });
      const pharmacist = (firstName: string, nabpEpid: string) => ({
        ...PHYSICIAN,
        firstName,
        nabpEpid,
        birthMonth: 3,
        birthDay: 7,
      });
      const course = { ...s, ama: s.types[0]!.id };
      for (const [name, epid] of [
        ["Ann", "123456"],
        ["Bob", "654321"],
        ["Cy", "111111"],
      ] as const) {
        expect(
          (await learnerClaims(course, `${name} Rx`, pharmacist(name, epid))).attested.statusCode,
        ).toBe(200);
      }
      const range = { courseId: s.course.id, from: today(), to: today() };
      const submit = () =>
        call(ctx, "POST", "/api/admin/reports/regulators/cpe_monitor/submissions", {
          cookie: admin,
          payload: range,
        });
      expect((await submit()).json()).toMatchObject({ code: "reporting.connection_missing" });
      const submitFor = (payload: object) =>
        call(ctx, "POST", "/api/admin/reports/regulators/cpe_monitor/submissions", {
          cookie: admin,
          payload: { ...range, ...payload },
        });
      expect((await submitFor({ courseId: "nope" })).statusCode).toBe(404);
      expect((await submitFor({ from: "2026-02-30" })).json()).toMatchObject({
        code: "validation.invalid_body",
      });
      const connect = (payload: object) =>
        call(ctx, "PUT", "/api/admin/reports/regulators/cpe_monitor/connection", {
          cookie: admin,
          payload,
        });
      expect((await connect({ parentProviderId: "1" })).json()).toMatchObject({
        code: "reporting.connection_invalid",
      });
      const connected = await connect({
        providerNumber: "0197",
        username: "northwind",
        password: "s3cret!",
        serviceUrl: base,
      });
      expect(connected.json()).toEqual({
        regulator: "cpe_monitor",
        parentProviderId: "",
        providerNumber: "0197",
        username: "northwind",
        serviceUrl: base,
        secretSet: true,
      });
      expect(connected.body).not.toContain("s3cret!");
      // The file route is not CPE Monitor's: it takes completions one by one.
      expect(
        (
          await call(ctx, "POST", "/api/admin/reports/regulators/cpe_monitor/files", {
            cookie: admin,
            payload: range,
          })
        ).json(),
      ).toMatchObject({ code: "reporting.submitted_by_service" });

      answer = (p) =>
        p.get("epid") === "654321"
          ? [
              200,
              {
                status: "Rejected",
                error_message: "Date of participation is outside the activity dates",
              },
            ]
          : p.get("epid") === "111111"
            ? [503, {}]
            : [200, { status: "Accepted" }];
      const sent = await submit();
      expect(sent.json()).toEqual({ accepted: 1, refused: 1, waiting: 1, notSent: [] });
      expect(requests).toHaveLength(3);
      const first = requests.find((r) => r.searchParams.get("epid") === "123456")!;
      expect(first.pathname).toBe("/service/cpemonitorservice.asmx/SubmitCPEActivityJSON");
      expect(Object.fromEntries(first.searchParams)).toEqual({
        provider_number: "0197",
        epid: "123456",
        date_of_birth: "0307",
        uan,
        date_of_participation: today(),
        action: "I",
        username: "northwind",
        password: "s3cret!",
      });
      const claims = async () =>
        (
          (
            await call(
              ctx,
              "GET",
              `/api/admin/reports/regulators/cpe_monitor/claims?courseId=${s.course.id}`,
              { cookie: admin },
            )
          ).json() as ReportClaim[]
        )
          .map((c) => [c.learnerName, c.status, c.submission?.status, c.submission?.message ?? ""])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      expect(await claims()).toEqual([
        ["Ann Rx", "reported", "accepted", ""],
        [
          "Bob Rx",
          "not_reported",
          "refused",
          "Date of participation is outside the activity dates",
        ],
        ["Cy Rx", "not_reported", "waiting", "CPE Monitor answered 503."],
      ]);
      // The retry waits for its time; then, the service back, the waiting claim is accepted.
      await ctx.app.cpeMonitorRetries.sweep();
      expect(requests).toHaveLength(3);
      answer = () => [200, { status: "Accepted" }];
      clock.advanceDays(1);
      await ctx.app.cpeMonitorRetries.sweep();
      expect(requests).toHaveLength(4);
      expect((await claims()).map((c) => c[2])).toEqual(["accepted", "refused", "accepted"]);
      // A refusal of the same values is not sent again: nothing new to send.
      expect((await submit()).json()).toMatchObject({ code: "reporting.nothing_to_report" });

      // The activity's registered dates given: a completion outside them is refused here, with
      // the reason, before CPE Monitor is asked.
      const registered = (details: object) =>
        putReporting(admin, s.course.id, {
          types: [
            {
              creditTypeId: s.types[0]!.id,
              regulators: [{ regulator: "cpe_monitor", activityId: uan, details }],
            },
          ],
        });
      expect((await registered({ registeredFrom: "2020-01-01" })).json()).toMatchObject({
        code: "validation.invalid_body",
        message: "Give both registered dates, or neither",
      });
      expect(
        (await registered({ registeredFrom: "2020-12-31", registeredTo: "2020-01-01" })).json(),
      ).toMatchObject({ message: "The start date must not be after the end date" });
      const dated = await registered({ registeredFrom: "2020-01-01", registeredTo: "2020-12-31" });
      expect(dated.statusCode, dated.body).toBe(200);
      const outside = (
        (
          await call(
            ctx,
            "GET",
            `/api/admin/reports/regulators/cpe_monitor/claims?courseId=${s.course.id}`,
            { cookie: admin },
          )
        ).json() as ReportClaim[]
      ).find((c) => c.learnerName === "Bob Rx")!;
      expect(outside.problem).toBe(
        `Completed on ${today()}, outside the activity's registered dates in CPE Monitor (2020-01-01 to 2020-12-31): CPE Monitor would refuse it. Correct the registered dates with ACPE, then here.`,
      );
      expect((await submit()).json()).toMatchObject({ code: "reporting.nothing_to_report" });
      expect(requests).toHaveLength(4);
    } finally {
      server.close();
      clock.reset();
    }
  });
});

describe("regulator credentials without a secrets key (production, no SECRETS_KEY)", () => {
  const ctx = useTestApp({ NODE_ENV: "production" });

  it("keeps the other settings but refuses a credential it could not keep sealed", async () => {
    const admin = await quickAdmin(ctx);
    // In production the session cookie is named __Host-credo_session.
    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: admin.email, password: admin.password },
    });
    const session = login.cookies.find((c) => c.name.endsWith("credo_session"));
    const cookie = `${session!.name}=${session!.value}`;
    const connect = (payload: object) =>
      call(ctx, "PUT", "/api/admin/reports/regulators/cpe_monitor/connection", { cookie, payload });
    expect((await connect({ providerNumber: "0197" })).statusCode).toBe(200);
    const refused = await connect({ password: "s3cret!" });
    expect([refused.statusCode, refused.json()]).toEqual([
      409,
      {
        code: "reporting.secrets_key_missing",
        message:
          "Credentials cannot be kept: set SECRETS_KEY (32 bytes in base64) and restart the portal.",
      },
    ]);
    expect(
      (
        await call(ctx, "GET", "/api/admin/reports/regulators/cpe_monitor/connection", { cookie })
      ).json(),
    ).toMatchObject({ providerNumber: "0197", secretSet: false });
  });
});
