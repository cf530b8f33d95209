import { describe, expect, it } from "vitest";
import type { Attempt, Course, LearnerImportPreview } from "../../contract";
import { questionTemplateCsv } from "../../web/features/assessments/question-template";
import { rejectedRows, rejectedRowsCsv } from "../../web/features/learners/rejected-rows";
import { moduleWatch } from "../learning/watching/watching.table";
import { auditHash } from "../platform/audit/audit-hash";
import { addQuestion, answersFor, questionBody, saveExamSettings } from "../testing/assessments";
import { addModule, createCourse, publish, validModule } from "../testing/courses";
import { accme } from "../testing/credit-claim";
import { parseCsv } from "../testing/csv";
import {
  call,
  completeViaApi,
  enrollViaApi,
  nextModuleNumber,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../testing/learning";
import { useTestApp } from "../testing/test-app";
import { expectUnchanged, settleBackgroundWork, snapshotAll } from "./support";

/** The payload of the review: a cell a spreadsheet would run, after a `;`. */
const PAYLOAD = "cmd|' /C calc'!A0";
/**
 * A value a spreadsheet splitting on `;` reads as several cells, each starting a formula
 * (=, +, -, @, tab), one also after a line break; and one starting with a formula itself.
 */
const hostile = (label: string) => `${label};=${PAYLOAD};+1;-1;@SUM(1);\t=2`;
const hostileAtStart = (label: string) => `=${PAYLOAD};${label}`;
const MULTILINE = `Fine;=${PAYLOAD}\n=${PAYLOAD}\r\n-1;x`;

/**
 * The cells a spreadsheet of a `;` locale, or any reader splitting lines first, could see:
 * every line split on `;`, surrounding quotes stripped. Quoting protects nothing here.
 */
function naiveCells(file: string): string[] {
  return file
    .replace(/^\ufeff/, "")
    .split(/\r\n|\n|\r/)
    .flatMap((line) => line.split(";"))
    .map((cell) => cell.replace(/^"+|"+$/g, ""));
}

describe("spreadsheet formulas in exports", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  it("never shows a formula cell to a spreadsheet splitting on ; in any export (reports, audit, transcript, exam and evaluation results, credit report, learner-import rejects, question template)", async () => {
    const admin = await quickAdmin(ctx, { name: hostileAtStart("Admin") });
    const adminCookie = await signInAs(ctx, admin);
    const learner = await quickLearner(ctx, { name: hostile("Ada") });
    const cookie = await signInAs(ctx, learner);
    const videoPath = await video(adminCookie);

    // An accredited course with an exam, an evaluation and an attestation: every field an
    // export prints holds a formula after a `;`.
    const draft = await createCourse(ctx, adminCookie, { title: hostile("Cardiology") });
    const module = await addModule(ctx, adminCookie, draft.id, {
      ...validModule(videoPath, nextModuleNumber()),
      title: hostile("Module"),
    });
    const question = await addQuestion(
      ctx,
      adminCookie,
      draft.id,
      questionBody(1, { text: hostile("Question") }),
    );
    await saveExamSettings(ctx, adminCookie, draft.id, {
      enabled: true,
      questionCount: 1,
      reviewRequired: false,
    });
    const put = async (path: string, payload: object) => {
      const response = await call(ctx, "PUT", `/api/courses/${draft.id}/${path}`, {
        cookie: adminCookie,
        payload,
      });
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
    };
    const offerCredit = () =>
      put("credit", {
        bodies: [{ name: hostileAtStart("ACCME"), providerNumber: hostile("P") }],
        types: [
          {
            name: hostile("AMA"),
            amount: 2,
            accreditingBody: hostileAtStart("ACCME"),
            accreditationStatement: "",
            designationStatement: "",
            claimStep: null,
            licenceRequired: true,
          },
        ],
      });
    const statement = hostile("I attest");
    await put("activity", accme({ attestationText: statement }));
    await put("evaluation", {
      items: [
        { kind: "likert", text: hostile("Rated"), required: true },
        { kind: "text", text: hostileAtStart("Comments"), required: false },
      ],
    });
    await put("credit-settings", {
      sponsorName: hostile("Sponsor"),
      sponsorAddress: "",
      deliveryMethod: "Live",
      fieldsOfStudy: [{ field: hostile("Ethics"), credits: 2 }],
      officialName: "",
      officialTitle: "",
    });
    const course = await publish(ctx, adminCookie, draft.id);
    // Offered once published: offering credit before asks to confirm Manual completion.
    await offerCredit();
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const licence = await call(ctx, "PUT", "/api/profile/licence", {
      cookie,
      payload: {
        // The licence number and state are held to their forms; the type or board is free text.
        licenceType: `RN;=${PAYLOAD};x`,
        licenceNumber: "RN-123",
        licenceState: "CA",
        npn: "",
      },
    });
    expect(licence.statusCode, licence.body).toBe(200);

    // The learner goes through every step, leaving hostile text wherever they type.
    const step = async (path: string, payload?: object, headers: object = {}) => {
      const response = await ctx.app.inject({
        method: "POST",
        url: `/api/courses/${course.id}/${path}`,
        headers: { cookie, ...headers },
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${path}: ${response.body}`).toBeLessThan(300);
      return response;
    };
    await step("acknowledge");
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const attempt = (await step("exam/attempts")).json() as Attempt;
    const submitted = await call(ctx, "POST", `/api/exam-attempts/${attempt.id}/submit`, {
      cookie,
      payload: { answers: answersFor(attempt.questions, [question]) },
    });
    expect(submitted.json().passed, submitted.body).toBe(true);
    const form = (await call(ctx, "GET", `/api/courses/${course.id}/evaluation`, { cookie })).json()
      .items as { id: string; kind: string }[];
    await step("evaluation", {
      answers: form.map((item) => ({
        itemId: item.id,
        value: item.kind === "likert" ? 5 : MULTILINE,
      })),
    });
    await step(
      "attest",
      { statement, creditsClaimed: null },
      { "user-agent": `Mozilla/5.0 (X11;=${PAYLOAD})` },
    );
    // Watching records, printed after the report.
    await ctx.database.db.insert(moduleWatch).values({
      userId: learner.id,
      courseId: course.id,
      moduleId: module.id,
      videoUrl: module.videoUrl,
      watchedSeconds: 60,
      seatSeconds: 60,
      lastHeartbeatAt: new Date(),
    });

    // A second course, completed, its certificate revoked for a hostile reason.
    const other = await createCourse(ctx, adminCookie, { title: hostileAtStart("Ethics") });
    await addModule(ctx, adminCookie, other.id, validModule(videoPath, nextModuleNumber()));
    const otherCourse = await publish(ctx, adminCookie, other.id);
    await enrollViaApi(ctx, adminCookie, learner.id, otherCourse.id);
    await completeViaApi(ctx, cookie, learner.id, otherCourse, 1);
    const certificates = (await call(ctx, "GET", "/api/certificates/mine", { cookie })).json() as {
      id: string;
      courseId: string;
    }[];
    expect(certificates).toHaveLength(2);
    const revoked = await call(
      ctx,
      "POST",
      `/api/certificates/${certificates.find((c) => c.courseId === otherCourse.id)!.id}/revoke`,
      { cookie: adminCookie, payload: { reason: hostile("Issued in error") } },
    );
    expect(revoked.statusCode, revoked.body).toBe(200);

    // Every export, read by an administrator; reading them records nothing.
    await settleBackgroundWork(ctx);
    const before = await snapshotAll(ctx);
    const download = async (url: string) => {
      const response = await call(ctx, "GET", url, { cookie: adminCookie });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      expect(response.headers["content-type"], url).toBe("text/csv; charset=utf-8");
      return response.body;
    };
    const exams = `/api/courses/${course.id}/exam/results?format=csv&view=`;
    const files: Record<string, string> = {
      reports: await download("/api/admin/reports/export"),
      audit: await download("/api/audit"),
      transcript: await download(`/api/learners/${learner.id}/transcript.csv`),
      "exam attempts": await download(`${exams}attempts`),
      "exam questions": await download(`${exams}questions`),
      "exam summary": await download(`${exams}summary`),
      evaluation: await download(`/api/courses/${course.id}/evaluation/results?format=csv`),
      "credit report": await download(`/api/courses/${course.id}/credit-report`),
    };
    const preview = await call(ctx, "POST", "/api/users/learners/import/preview", {
      cookie: adminCookie,
      payload: {
        csv: `name,email,phone,courses\r\n"${hostile("Bo")}",not-an-email,"+1;=${PAYLOAD}","${hostileAtStart("Course")}"\r\n`,
      },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const { rows } = preview.json() as LearnerImportPreview;
    files["learner-import rejects"] = rejectedRowsCsv(rejectedRows(rows, []));
    const courseRead = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: adminCookie });
    files["question template"] = questionTemplateCsv(courseRead.json() as Course);
    await expectUnchanged(ctx, before, "after reading every export");

    for (const [name, file] of Object.entries(files)) {
      // The hostile text reached the file (the summary holds figures only).
      if (name !== "exam summary" && name !== "question template") {
        expect(file, name).toContain(PAYLOAD);
      }
      // An id may start with `-` (base64url); letters, digits, `_` and `-` alone call nothing.
      const formulas = naiveCells(file).filter(
        (cell) => /^[=+\-@\t\r]/.test(cell) && !/^[\w-]{16,}$/.test(cell),
      );
      expect(formulas, name).toEqual([]);
    }
    // The audit file stays checkable: each line's hash is recomputed from the file alone.
    const [, ...events] = parseCsv(files.audit!.trimEnd());
    // Its credit course's body and type entered the organisation's catalogue: two events more.
    expect(events).toHaveLength(28);
    for (const [
      seq,
      at,
      type,
      actorId,
      actorRole,
      learnerId,
      courseId,
      moduleId,
      details,
      prevHash,
      hash,
    ] of events) {
      const orNull = (cell: string | undefined) => cell || null;
      expect(
        auditHash({
          seq: Number(seq),
          at: new Date(at!),
          type: type!,
          actorId: orNull(actorId),
          actorRole: orNull(actorRole),
          learnerId: orNull(learnerId),
          courseId: orNull(courseId),
          moduleId: orNull(moduleId),
          details: JSON.parse(details!),
          prevHash: prevHash!,
        }),
        `${seq} ${type}`,
      ).toBe(hash);
    }
  });
});
