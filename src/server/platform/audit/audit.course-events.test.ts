import { readFileSync } from "node:fs";
import { asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type Course,
  DEFAULT_ACTIVITY,
  DEFAULT_CREDIT_SETTINGS,
  DEFAULT_EXAM_SETTINGS,
  QUESTION_CSV_COLUMNS,
} from "../../../contract";
import { addQuestion, questionBody, saveExamSettings } from "../../testing/assessments";
import { addModule, createCourse, moduleId, publish, validModule } from "../../testing/courses";
import {
  buildPublishedCourse,
  call,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { createAuditService } from "./audit.service";
import { auditEvents } from "./audit.table";

const signaturePng = readFileSync(
  new URL("../../../../test-fixtures/sample-signature.png", import.meta.url),
);

/**
 * Every change an administrator makes to a course, its modules, its exam and review
 * questions, its accreditation and its credit settings is an audit event, written with the
 * change in one transaction: who made it, what changed (old and new for short fields), and
 * nothing at all when the change is refused.
 */
describe("audit events of course changes", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  let admin: Awaited<ReturnType<typeof quickAdmin>>;
  let adminCookie: string;

  beforeEach(async () => {
    admin = await quickAdmin(ctx);
    adminCookie = await signInAs(ctx, admin);
  });

  /** The course's events in the order they were written. */
  const trail = (courseId: string) =>
    ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.courseId, courseId))
      .orderBy(asc(auditEvents.id));

  /** Answers with `status` and adds nothing to the course's trail. */
  async function refused(
    courseId: string,
    status: number,
    request: () => ReturnType<typeof call>,
  ): Promise<void> {
    // By id: the background linker may chain rows meanwhile, which is no new event.
    const ids = async () => (await trail(courseId)).map((e) => e.id);
    const before = await ids();
    const response = await request();
    expect(response.statusCode, response.body).toBe(status);
    if (status >= 400) {
      expect(response.json()).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
      });
    }
    expect(await ids()).toEqual(before);
  }

  const as = (cookie: string) => ({
    put: (url: string, payload: unknown) => call(ctx, "PUT", url, { cookie, payload }),
    patch: (url: string, payload?: unknown) => call(ctx, "PATCH", url, { cookie, payload }),
    post: (url: string, payload: unknown) => call(ctx, "POST", url, { cookie, payload }),
    del: (url: string) => call(ctx, "DELETE", url, { cookie }),
  });

  const courseBody = (course: Course, overrides: Record<string, unknown> = {}) => ({
    title: course.title,
    description: course.description,
    category: course.category,
    duration: course.duration,
    ...overrides,
  });

  it("records a course's life: created, edited, settings, modules, reordered, published, unpublished, deleted", async () => {
    const api = as(adminCookie);
    const videoPath = await video(adminCookie);
    const course = await createCourse(ctx, adminCookie, { title: "Ethics for CPAs" });
    const url = `/api/courses/${course.id}`;
    const first = await addModule(ctx, adminCookie, course.id, validModule(videoPath, 901));
    const second = await addModule(ctx, adminCookie, course.id, validModule(videoPath, 902));

    // The spec's answers are unchanged: the edit answers the course.
    const edit = await api.put(
      url,
      courseBody(course, { title: "Ethics for CPAs 2026", description: "New text", duration: 2 }),
    );
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ title: "Ethics for CPAs 2026", duration: 2 });
    // Saving the same details again changes nothing and records nothing.
    const same = await api.put(
      url,
      courseBody(course, { title: "Ethics for CPAs 2026", description: "New text", duration: 2 }),
    );
    expect(same.statusCode).toBe(200);
    const settings = await api.patch(`${url}/settings`, {
      completionPolicy: "verified",
      minWatchPercent: 80,
    });
    expect(settings.statusCode, settings.body).toBe(200);

    const module = { ...validModule(videoPath, 901), title: "Independence rules", duration: 7 };
    expect((await api.put(`${url}/modules/${first.id}`, module)).statusCode).toBe(200);
    expect(
      (await api.put(`${url}/modules/order`, { moduleIds: [second.id, first.id] })).statusCode,
    ).toBe(200);
    // The same order again is no change.
    expect(
      (await api.put(`${url}/modules/order`, { moduleIds: [second.id, first.id] })).statusCode,
    ).toBe(200);
    await publish(ctx, adminCookie, course.id);
    // Publishing a published course again records nothing.
    expect((await api.patch(`${url}/publish`)).statusCode).toBe(200);
    expect((await api.patch(`${url}/unpublish`)).statusCode).toBe(200);
    await publish(ctx, adminCookie, course.id);
    expect((await api.del(`${url}/modules/${second.id}`)).statusCode).toBe(200);
    const removed = await api.del(url);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ message: "Course deleted" });

    const rows = await trail(course.id);
    expect(rows.map((e) => [e.type, e.moduleId])).toEqual([
      ["course.created", null],
      ["module.added", first.id],
      ["module.added", second.id],
      ["course.updated", null],
      ["course.settings_updated", null],
      ["module.updated", first.id],
      ["course.modules_reordered", null],
      ["course.published", null],
      ["course.unpublished", null],
      ["course.published", null],
      ["module.removed", second.id],
      ["course.deleted", null],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ actorId: admin.id, actorRole: "admin", learnerId: null });
    }
    const details = rows.map((r) => r.details);
    expect(details[0]).toMatchObject({ courseTitle: "Ethics for CPAs", duration: 3 });
    expect(details[1]).toMatchObject({ moduleTitle: "Module 901", duration: 5, position: 1 });
    // Short fields keep old and new; long text is named only.
    expect(details[3]).toEqual({
      courseTitle: "Ethics for CPAs 2026",
      changes: [
        { field: "title", from: "Ethics for CPAs", to: "Ethics for CPAs 2026" },
        { field: "description" },
        { field: "duration", from: 3, to: 2 },
      ],
    });
    expect(details[4]).toMatchObject({
      changes: [
        { field: "completionPolicy", from: "manual", to: "verified" },
        { field: "minWatchPercent", from: 90, to: 80 },
      ],
    });
    expect(details[5]).toEqual({
      courseTitle: "Ethics for CPAs 2026",
      moduleTitle: "Independence rules",
      changes: [
        { field: "title", from: "Module 901", to: "Independence rules" },
        { field: "duration", from: 5, to: 7 },
      ],
    });
    expect(details[6]).toEqual({
      courseTitle: "Ethics for CPAs 2026",
      from: [first.id, second.id],
      to: [second.id, first.id],
      titles: ["Module 902", "Independence rules"],
    });
    expect(details[10]).toMatchObject({ moduleTitle: "Module 902" });
    // The deleted course keeps its name in the trail.
    expect(details[11]).toMatchObject({
      courseTitle: "Ethics for CPAs 2026",
      wasPublished: true,
      modules: 1,
    });
    // And the chain still verifies.
    expect(await createAuditService({ db: ctx.database.db }).verify()).toMatchObject({
      ok: true,
      unlinked: 0,
    });
  });

  it("records nothing when a course or module change is refused", async () => {
    const api = as(adminCookie);
    const learner = await quickLearner(ctx);
    const learnerApi = as(await signInAs(ctx, learner));
    const videoPath = await video(adminCookie);
    const course = await buildPublishedCourse(ctx, adminCookie, { video: videoPath, modules: 1 });
    const draft = await createCourse(ctx, adminCookie);
    const url = `/api/courses/${course.id}`;
    const only = course.modules[0]!;

    await refused(course.id, 403, () => learnerApi.put(url, courseBody(course, { title: "X" })));
    await refused(course.id, 403, () => learnerApi.patch(`${url}/unpublish`));
    await refused(course.id, 400, () =>
      api.put(url, courseBody(course, { thumbnail: "/objects/uploads/missing" })),
    );
    await refused(course.id, 400, () => api.put(url, courseBody(course, { duration: 0 })));
    await refused(course.id, 400, () =>
      api.put(`${url}/modules/order`, { moduleIds: [only.id, only.id] }),
    );
    // The last module of a published course stays.
    await refused(course.id, 409, () => api.del(`${url}/modules/${only.id}`));
    await refused(course.id, 409, () =>
      api.post(`${url}/modules`, { ...validModule(videoPath), id: only.id }),
    );
    await refused(course.id, 400, () =>
      api.put(`${url}/modules/${only.id}`, {
        ...validModule("/objects/uploads/missing"),
        id: only.id,
      }),
    );
    await refused(course.id, 404, () =>
      api.put(`${url}/modules/${moduleId(999)}`, validModule(videoPath)),
    );
    await refused(draft.id, 409, () => api.patch(`/api/courses/${draft.id}/publish`));
    await refused(draft.id, 400, () => api.patch(`/api/courses/${draft.id}/unpublish`));
    await refused(draft.id, 400, () =>
      api.patch(`/api/courses/${draft.id}/settings`, { minWatchPercent: 0 }),
    );
    // An unknown course has no events to show, and gets none.
    await refused("missing", 404, () => api.put("/api/courses/missing", courseBody(course)));
    await refused("missing", 404, () => api.del("/api/courses/missing"));
  });

  it("records changes to the exam settings, the exam's questions and the review questions", async () => {
    const api = as(adminCookie);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 2,
    });
    const url = `/api/courses/${course.id}`;
    const [m1] = course.modules;
    const q1 = await addQuestion(ctx, adminCookie, course.id, questionBody(1));
    const q2 = await addQuestion(ctx, adminCookie, course.id, questionBody(2));
    const review = await addQuestion(
      ctx,
      adminCookie,
      course.id,
      questionBody(3, { pool: "review", moduleId: m1!.id }),
    );
    await saveExamSettings(ctx, adminCookie, course.id, { enabled: true, questionCount: 2 });
    // The same settings again: no change, no event.
    await saveExamSettings(ctx, adminCookie, course.id, { enabled: true, questionCount: 2 });
    const edited = await api.put(`${url}/questions/${q1.id}`, {
      ...questionBody(1),
      text: "Question one, reworded?",
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(
      (await api.put(`${url}/questions/order`, { questionIds: [q2.id, q1.id] })).statusCode,
    ).toBe(200);
    const csv = [
      QUESTION_CSV_COLUMNS.join(","),
      `final,,true_false,The sky is green,True,False,,,,,,,B,,,,,,,,,`,
      `final,,true_false,Water is wet,True,False,,,,,,,A,,,,,,,,,`,
      `review,${m1!.title},true_false,Review fact,True,False,,,,,,,A,,,,,,,,,`,
    ].join("\n");
    const imported = await api.post(`${url}/questions/import`, { csv, dryRun: false });
    expect(imported.statusCode, imported.body).toBe(200);
    // A preview writes nothing.
    await refused(course.id, 200, () => api.post(`${url}/questions/import`, { csv, dryRun: true }));
    expect((await api.del(`${url}/questions/${review.id}`)).statusCode).toBe(200);

    // Refused: the published exam could no longer draw its questions.
    await refused(course.id, 409, () =>
      api.put(`${url}/exam-settings`, {
        ...DEFAULT_EXAM_SETTINGS,
        enabled: true,
        questionCount: 50,
      }),
    );
    await refused(course.id, 400, () => api.put(`${url}/questions/${q1.id}`, { text: "" }));
    await refused(course.id, 404, () => api.del(`${url}/questions/missing`));

    const rows = await trail(course.id);
    const mine = rows.filter(
      (r) => !["course.created", "module.added", "course.published"].includes(r.type),
    );
    expect(mine.map((r) => [r.type, r.moduleId])).toEqual([
      ["exam.question_added", null],
      ["exam.question_added", null],
      ["review.question_added", m1!.id],
      ["exam.settings_updated", null],
      ["exam.question_updated", null],
      ["exam.questions_reordered", null],
      ["exam.questions_imported", null],
      ["review.questions_imported", null],
      ["review.question_removed", m1!.id],
    ]);
    for (const row of mine) expect(row).toMatchObject({ actorId: admin.id, actorRole: "admin" });
    expect(mine[0]!.details).toMatchObject({ questionId: q1.id, questionText: "Question 1?" });
    expect(mine[2]!.details).toMatchObject({ moduleTitle: m1!.title, questionText: "Question 3?" });
    expect(mine[3]!.details).toMatchObject({
      changes: [
        { field: "enabled", from: false, to: true },
        { field: "questionCount", from: expect.any(Number), to: 2 },
      ],
    });
    expect(mine[4]!.details).toMatchObject({ changes: [{ field: "text" }] });
    expect(mine[5]!.details).toMatchObject({ moved: 2 });
    expect(mine[6]!.details).toMatchObject({ count: 2 });
    expect(mine[7]!.details).toMatchObject({ count: 1 });
  });

  it("records changes to the accreditation, the evaluation form and the credit settings", async () => {
    const api = as(adminCookie);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 1,
    });
    const url = `/api/courses/${course.id}`;
    const activity = { ...DEFAULT_ACTIVITY, retentionYears: 7, disclosureStatement: "None." };
    expect((await api.put(`${url}/activity`, activity)).statusCode).toBe(200);
    expect((await api.put(`${url}/activity`, activity)).statusCode).toBe(200);
    const form = await api.put(`${url}/evaluation`, {
      items: [{ kind: "likert", text: "Would you recommend it?", required: true }],
    });
    expect(form.statusCode, form.body).toBe(200);
    const { signatureId: _, ...credit } = DEFAULT_CREDIT_SETTINGS;
    const saved = await api.put(`${url}/credit-settings`, {
      ...credit,
      sponsorName: "Credo Health Education",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const signed = await api.put(`${url}/signature`, {
      dataUrl: `data:image/png;base64,${signaturePng.toString("base64")}`,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await api.del(`${url}/signature`)).statusCode).toBe(200);
    // Removing a signature that is gone is no change.
    expect((await api.del(`${url}/signature`)).statusCode).toBe(200);

    await refused(course.id, 400, () =>
      api.put(`${url}/activity`, { ...activity, retentionYears: 0 }),
    );
    await refused(course.id, 400, () =>
      api.put(`${url}/signature`, { dataUrl: "data:image/png;base64,bm90IGFuIGltYWdl" }),
    );
    await refused(course.id, 400, () => api.put(`${url}/evaluation`, { items: "none" }));

    const rows = (await trail(course.id)).filter(
      (r) => !["course.created", "module.added", "course.published"].includes(r.type),
    );
    expect(rows.map((r) => r.type)).toEqual([
      "activity.updated",
      "evaluation.form_updated",
      "credit.settings_updated",
      "credit.signature_updated",
      "credit.signature_removed",
    ]);
    for (const row of rows) expect(row).toMatchObject({ actorId: admin.id, actorRole: "admin" });
    expect(rows[0]!.details).toEqual({
      courseTitle: course.title,
      changes: [
        { field: "disclosureStatement", from: "", to: "None." },
        { field: "retentionYears", from: 6, to: 7 },
      ],
    });
    expect(rows[1]!.details).toMatchObject({ changes: [{ field: "evaluationItems" }] });
    expect(rows[2]!.details).toMatchObject({
      changes: [{ field: "sponsorName", from: "", to: "Credo Health Education" }],
    });
    expect(rows[3]!.details).toMatchObject({
      changes: [{ field: "signatureId", from: null, to: expect.any(String) }],
    });
  });
});
