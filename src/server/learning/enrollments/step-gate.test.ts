import { asc } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import {
  type ActivityInput,
  type Answer,
  type Attempt,
  type Course as CourseEntity,
  CREDIT_MESSAGES,
  DEFAULT_ACTIVITY,
  type EnrollmentWithRelations,
  type Question,
} from "../../../contract";
import { auditEvents } from "../../platform/audit/audit.table";
import { addQuestion, answersFor, questionBody, saveExamSettings } from "../../testing/assessments";
import { publish } from "../../testing/courses";
import { creditOffer, creditType } from "../../testing/credit-claim";
import {
  buildPublishedCourse,
  call,
  enrollViaApi,
  postProgress,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { type TestContext, useTestApp } from "../../testing/test-app";

const DAY_MS = 86_400_000;
const OFFLINE = "This course is unavailable: the provider has taken it offline for now.";
const STATEMENT = "I attest that I personally completed this activity.";
const EVALUATION = [
  { itemId: "objectives", value: 5 },
  { itemId: "relevance", value: 4 },
  { itemId: "balance", value: 5 },
  { itemId: "faculty", value: 3 },
  { itemId: "comments", value: "Clear and useful." },
];

/**
 * The credit and exam clock, moved by hand. Each test starts it at the real time, since the
 * database dates the enrollment, and the validity window runs from that date.
 */
let clock = new Date();
/** When the test's course opened: the clock goes back here to bring an expired course back. */
let openedAt = clock;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const daysAfterOpening = (days: number) => new Date(openedAt.getTime() + days * DAY_MS);

/** A course that turns on every step: acknowledgement, review, exam, evaluation, attestation. */
const everyStep = (extra: Partial<ActivityInput>): ActivityInput => ({
  ...DEFAULT_ACTIVITY,
  acknowledgementRequired: true,
  evaluationRequired: true,
  attestationRequired: true,
  attestationText: STATEMENT,
  ...extra,
});

interface Course {
  adminCookie: string;
  course: CourseEntity;
  reviewQuestions: Question[];
  finalQuestions: Question[];
}

/** A learner of the course, signed in. */
interface Setup extends Course {
  learner: { id: string };
  cookie: string;
}

/** What the learner did before the step under test, that the step builds on. */
interface Arranged {
  attempt?: Attempt;
  /** The answers saved in the open attempt while the course was still open. */
  saved?: Answer[];
}

/** Why a learner may take no step on the course, and how a test brings it about. */
interface Condition {
  label: string;
  /** What the course's activity says, so the condition can come about later. */
  activity: () => Partial<ActivityInput>;
  message: string;
  /** The course goes offline for the learner. */
  apply(ctx: TestContext, s: Course): Promise<void>;
  /** Back online, to read what the learner has on record and take the step for real. */
  undo(ctx: TestContext, s: Course): Promise<void>;
}

const conditions: Condition[] = [
  {
    label: "taken offline (unpublished)",
    activity: () => ({}),
    message: OFFLINE,
    async apply(ctx, s) {
      const response = await call(ctx, "PATCH", `/api/courses/${s.course.id}/unpublish`, {
        cookie: s.adminCookie,
      });
      expect(response.statusCode, response.body).toBe(200);
    },
    async undo(ctx, s) {
      // A credit course completed manually, with more credit than its test video's seconds
      // support, publishes again once both are confirmed.
      const url = `/api/courses/${s.course.id}/publish?confirm=manual-completion&creditLengthReason=Reading`;
      const response = await call(ctx, "PATCH", url, { cookie: s.adminCookie });
      expect(response.statusCode, response.body).toBe(200);
    },
  },
  {
    label: "past its expiration date",
    // The last day is tomorrow; no validity window, so only the expiry can refuse.
    activity: () => ({ expirationDate: dayOf(daysAfterOpening(1)) }),
    message: CREDIT_MESSAGES.courseExpired,
    async apply() {
      clock = daysAfterOpening(3);
    },
    async undo() {
      clock = openedAt;
    },
  },
  {
    label: "past the learner's validity window",
    // Two days from enrollment; no expiration date, so only the window can refuse.
    activity: () => ({ enrollmentValidDays: 2 }),
    message: CREDIT_MESSAGES.enrollmentExpired,
    async apply() {
      clock = daysAfterOpening(2.5);
    },
    async undo() {
      clock = openedAt;
    },
  },
];

/** The learner's steps in the fixed order of completion. */
const STEPS = [
  "acknowledgement",
  "review answers",
  "module progress",
  "exam start",
  "exam answer save",
  "exam submit",
  "evaluation",
  "commitment",
  "attestation",
] as const;
type Step = (typeof STEPS)[number];

describe("a course that is offline, expired or past the learner's window", () => {
  const ctx = useTestApp({}, { clock: () => clock });
  const video = useSharedVideo(ctx);

  const expectOk = (response: LightMyRequestResponse, what: string) =>
    expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(300);

  /**
   * A published two-module course with a review question on each module (review required), a
   * two-question final exam, and an evaluation and an attestation after an acknowledgement.
   */
  async function setup(condition: Condition): Promise<Course> {
    clock = new Date();
    openedAt = clock;
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const draft = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 2,
      draft: true,
    });
    const reviewQuestions: Question[] = [];
    for (const [i, module] of draft.modules.entries()) {
      reviewQuestions.push(
        await addQuestion(
          ctx,
          adminCookie,
          draft.id,
          questionBody(i + 1, { pool: "review", moduleId: module.id }),
        ),
      );
    }
    const finalQuestions = [
      await addQuestion(ctx, adminCookie, draft.id, questionBody(3)),
      await addQuestion(ctx, adminCookie, draft.id, questionBody(4, { kind: "true_false" })),
    ];
    await saveExamSettings(ctx, adminCookie, draft.id, {
      enabled: true,
      questionCount: 2,
      reviewRequired: true,
    });
    const activity = await call(ctx, "PUT", `/api/courses/${draft.id}/activity`, {
      cookie: adminCookie,
      payload: everyStep(condition.activity()),
    });
    expect(activity.statusCode, activity.body).toBe(200);
    const commitment = await call(ctx, "PUT", `/api/courses/${draft.id}/steps/commitment`, {
      cookie: adminCookie,
      payload: {
        required: true,
        items: [{ kind: "text", text: "What will you change?", required: true }],
      },
    });
    expect(commitment.statusCode, commitment.body).toBe(200);
    const published = await publish(ctx, adminCookie, draft.id);
    // The credit it offers, once published (offering it before asks to confirm Manual completion).
    const settings = await call(ctx, "PUT", `/api/courses/${draft.id}/credit`, {
      cookie: adminCookie,
      payload: creditOffer([creditType({ amount: 1, claimStep: null })]),
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const course: CourseEntity = settings.json();
    expect(course.isPublished).toBe(published.isPublished);
    return { adminCookie, course, reviewQuestions, finalQuestions };
  }

  /** A signed-in learner enrolled in the course. */
  async function enrolled(base: Course): Promise<Setup> {
    const learner = await quickLearner(ctx);
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, base.adminCookie, learner.id, base.course.id);
    return { ...base, learner, cookie };
  }

  const courseUrl = (s: Setup, path: string) => `/api/courses/${s.course.id}/${path}`;
  const reviewUrl = (s: Setup, moduleId: string) => courseUrl(s, `modules/${moduleId}/review`);
  const lastModule = (s: Setup) => s.course.modules.at(-1)!;

  /** Each step as the learner's browser takes it. */
  const take: Record<Step, (s: Setup, arranged: Arranged) => Promise<LightMyRequestResponse>> = {
    acknowledgement: (s) => call(ctx, "POST", courseUrl(s, "acknowledge"), { cookie: s.cookie }),
    "review answers": (s) =>
      call(ctx, "POST", reviewUrl(s, lastModule(s).id), {
        cookie: s.cookie,
        payload: { answers: answersFor([s.reviewQuestions.at(-1)!], s.reviewQuestions) },
      }),
    "module progress": (s) =>
      postProgress(ctx, s.cookie, {
        userId: s.learner.id,
        courseId: s.course.id,
        moduleId: lastModule(s).id,
      }),
    "exam start": (s) => call(ctx, "POST", courseUrl(s, "exam/attempts"), { cookie: s.cookie }),
    "exam answer save": (s, { attempt }) =>
      call(ctx, "PUT", `/api/exam-attempts/${attempt!.id}/answers`, {
        cookie: s.cookie,
        payload: { answers: answersFor(attempt!.questions, s.finalQuestions) },
      }),
    "exam submit": (s, { attempt }) =>
      call(ctx, "POST", `/api/exam-attempts/${attempt!.id}/submit`, {
        cookie: s.cookie,
        payload: { answers: answersFor(attempt!.questions, s.finalQuestions) },
      }),
    evaluation: (s) =>
      call(ctx, "POST", courseUrl(s, "evaluation"), {
        cookie: s.cookie,
        payload: { answers: EVALUATION },
      }),
    commitment: async (s) => {
      const form = await call(ctx, "GET", courseUrl(s, "steps/commitment"), { cookie: s.cookie });
      return call(ctx, "POST", courseUrl(s, "steps/commitment"), {
        cookie: s.cookie,
        payload: { answers: [{ itemId: form.json().items[0].id, value: "Screen at intake." }] },
      });
    },
    attestation: (s) =>
      call(ctx, "POST", courseUrl(s, "attest"), {
        cookie: s.cookie,
        payload: { statement: STATEMENT, creditsClaimed: null },
      }),
  };

  /**
   * Takes every step before `step`, in order, while the course is open: the last module is
   * left for the review and progress steps, and an exam attempt is left open, with wrong
   * answers saved, for the answer-save and submit steps.
   */
  async function walk(s: Setup, step: Step): Promise<Arranged> {
    const earlier = (other: Step) => STEPS.indexOf(other) < STEPS.indexOf(step);
    if (!earlier("acknowledgement")) return {};
    expectOk(await take.acknowledgement(s, {}), "acknowledge");
    for (const [i, module] of s.course.modules.entries()) {
      const last = i === s.course.modules.length - 1;
      if (!last || earlier("review answers")) {
        const answered = await call(ctx, "POST", reviewUrl(s, module.id), {
          cookie: s.cookie,
          payload: { answers: answersFor([s.reviewQuestions[i]!], s.reviewQuestions) },
        });
        expectOk(answered, `review of module ${i + 1}`);
      }
      if (!last || earlier("module progress")) {
        const completed = await postProgress(ctx, s.cookie, {
          userId: s.learner.id,
          courseId: s.course.id,
          moduleId: module.id,
        });
        expectOk(completed, `module ${i + 1}`);
      }
    }
    if (!earlier("exam start")) return {};
    const started = await take["exam start"](s, {});
    expectOk(started, "exam start");
    const attempt = started.json() as Attempt;
    const saved = answersFor(attempt.questions, s.finalQuestions, () => false);
    const save = await call(ctx, "PUT", `/api/exam-attempts/${attempt.id}/answers`, {
      cookie: s.cookie,
      payload: { answers: saved },
    });
    expectOk(save, "exam answer save");
    if (!earlier("exam submit")) return { attempt, saved };
    expectOk(await take["exam submit"](s, { attempt }), "exam submit");
    if (earlier("evaluation")) expectOk(await take.evaluation(s, {}), "evaluation");
    if (earlier("commitment")) expectOk(await take.commitment(s, {}), "commitment");
    return { attempt, saved };
  }

  /** Everything the learner has on record in the course, read through the API. */
  async function standing(s: Setup) {
    const read = async (url: string) => {
      const response = await call(ctx, "GET", url, { cookie: s.cookie });
      return { status: response.statusCode, body: response.json() };
    };
    const enrollments = (await read(`/api/enrollments/user/${s.learner.id}`))
      .body as EnrollmentWithRelations[];
    const enrollment = enrollments.find((e) => e.courseId === s.course.id)!;
    const reviews = [];
    for (const module of s.course.modules) reviews.push(await read(reviewUrl(s, module.id)));
    const activity = await read(courseUrl(s, "activity"));
    return {
      completion: await read(courseUrl(s, "completion")),
      acknowledgedAt: activity.body.standing.acknowledgedAt,
      attestation: activity.body.standing.attestation,
      reviews,
      enrollment: {
        progress: enrollment.progress,
        completedModules: enrollment.completedModules,
        isCompleted: enrollment.isCompleted,
        completedAt: enrollment.completedAt,
      },
      exam: await read(courseUrl(s, "exam")),
      evaluation: await read(courseUrl(s, "evaluation")),
      commitment: await read(courseUrl(s, "steps/commitment")),
      certificates: await read("/api/certificates/mine"),
    };
  }
  type Standing = Awaited<ReturnType<typeof standing>>;

  /** Whether the learner's record shows the step taken. */
  const recorded: Record<Step, (st: Standing, s: Setup, arranged: Arranged) => boolean> = {
    acknowledgement: (st) => st.acknowledgedAt !== null,
    "review answers": (st) => st.reviews.at(-1)!.body.answered === true,
    "module progress": (st, s) => st.enrollment.completedModules.includes(lastModule(s).id),
    "exam start": (st) => st.exam.body.attempts.length > 0,
    "exam answer save": (st, _s, { saved }) =>
      JSON.stringify(st.exam.body.current?.answers) !== JSON.stringify(saved),
    "exam submit": (st) =>
      st.exam.body.attempts.some((a: { submittedAt: string | null }) => a.submittedAt !== null),
    evaluation: (st) => st.evaluation.body.submitted === true,
    commitment: (st) => st.commitment.body.answeredAt !== null,
    attestation: (st) => st.attestation !== null,
  };

  /** The audit trail's events in the order they were written. */
  const auditTrail = () =>
    ctx.database.db
      .select({ id: auditEvents.id, type: auditEvents.type })
      .from(auditEvents)
      .orderBy(asc(auditEvents.id));

  // One course per condition, with a learner standing just before each step: the course
  // goes offline once for all of them.
  it.each(conditions)(
    "refuses every learner step with 409 when $label, records nothing, and takes each once the course is back",
    async (condition) => {
      const base = await setup(condition);
      const learners = [];
      for (const step of STEPS) {
        const s = await enrolled(base);
        const arranged = await walk(s, step);
        const before = await standing(s);
        expect(recorded[step](before, s, arranged), step).toBe(false);
        expect(before.certificates.body).toEqual([]);
        learners.push({ step, s, arranged, before });
      }

      await condition.apply(ctx, base);
      for (const { step, s, arranged } of learners) {
        const trail = await auditTrail();
        const refused = await take[step](s, arranged);
        expect(refused.statusCode, `${step}: ${refused.body}`).toBe(409);
        expect(refused.json().message, step).toBe(condition.message);
        // Not even an attempt of the step reaches the audit trail.
        expect(await auditTrail(), step).toEqual(trail);
      }

      // Read back with the course open again, so nothing the refused calls did can hide.
      await condition.undo(ctx, base);
      for (const { step, s, arranged, before } of learners) {
        expect(await standing(s), step).toEqual(before);
        // The same call is accepted now: it was refused for the course's state alone.
        expectOk(await take[step](s, arranged), `${step} once back`);
        expect(recorded[step](await standing(s), s, arranged), step).toBe(true);
      }
    },
  );
});
