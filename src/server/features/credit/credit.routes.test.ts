import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  type ActivityInput,
  type Certificate,
  type Completion,
  CREDIT_MESSAGES,
  type CreditSettingsBody,
  DEFAULT_ACTIVITY,
  DEFAULT_EVALUATION_ITEMS,
  type EvaluationResults,
} from "../../../contract";
import { buildExamCourse } from "../../testing/assessments";
import { parseCsv } from "../../testing/csv";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  postEnrollment,
  postProgress,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { pdfText } from "../../testing/pdf-text";
import { useTestApp } from "../../testing/test-app";
import { auditEvents } from "../audit/audit.table";
import { certificates } from "../certificates/certificates.table";
import {
  acknowledgements,
  attestations,
  evaluationResponses,
  evaluationSubmissions,
} from "./credit.table";

/** The credit clock; it starts at the real time, since enrollments are dated by the database. */
let clock = new Date();
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const advanceDays = (days: number) => {
  clock = new Date(clock.getTime() + days * 86_400_000);
};

const signaturePng = readFileSync(
  new URL("../../../../test-fixtures/sample-signature.png", import.meta.url),
);
const STATEMENT = "I attest that I personally completed this activity.";

/** An ACCME-style activity: acknowledgement, evaluation, attestation with 0.25 steps. */
const accme = (extra: Partial<ActivityInput> = {}): ActivityInput => ({
  ...DEFAULT_ACTIVITY,
  objectives: ["Recognise the signs", "Choose the treatment"],
  faculty: [{ name: "Dr. Ada Byron", role: "Course director", disclosure: "Nothing to disclose" }],
  disclosureStatement:
    "Dr. Byron: consultant, Acme Pharma. All relevant financial relationships have been mitigated.",
  accreditationStatement:
    "Credo Medical designates this enduring material for 2 AMA PRA Category 1 Credits™.",
  releaseDate: "2026-01-01",
  reviewDate: "2026-06-01",
  expirationDate: "2099-12-31",
  acknowledgementRequired: true,
  evaluationRequired: true,
  attestationRequired: true,
  attestationText: STATEMENT,
  partialCreditStep: 0.25,
  ...extra,
});

const answers = [
  { itemId: "objectives", value: 5 },
  { itemId: "relevance", value: 4 },
  { itemId: "balance", value: 5 },
  { itemId: "faculty", value: 3 },
  { itemId: "comments", value: "Клинические примеры были полезны" },
];

describe("the credit claim", () => {
  const ctx = useTestApp({}, { creditClock: () => clock });
  const video = useSharedVideo(ctx);

  /** A published two-module course with 2 designated credits and the given activity. */
  async function setup(activity: ActivityInput | null = accme(), modules = 2) {
    clock = new Date();
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules,
    });
    const settings = await call(ctx, "PATCH", `/api/courses/${course.id}/settings`, {
      cookie: adminCookie,
      payload: { creditHours: 2, creditType: "AMA PRA Category 1", accreditingBody: "ACCME" },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    if (activity) {
      const saved = await call(ctx, "PUT", `/api/courses/${course.id}/activity`, {
        cookie: adminCookie,
        payload: activity,
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const learner = await quickLearner(ctx, { name: "Анна Иванова" });
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const url = (path: string) => `/api/courses/${course.id}/${path}`;
    const completion = async () =>
      (await call(ctx, "GET", url("completion"), { cookie })).json() as Completion;
    return { admin, adminCookie, course, learner, cookie, url, completion };
  }

  async function certificatesOf(cookie: string): Promise<Certificate[]> {
    return (await call(ctx, "GET", "/api/certificates/mine", { cookie })).json() as Certificate[];
  }

  it("keeps an administrator's activity, answers it to enrolled learners only, and refuses impossible dates", async () => {
    const { adminCookie, course, cookie, url } = await setup();
    const read = await call(ctx, "GET", url("activity"), { cookie });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      objectives: ["Recognise the signs", "Choose the treatment"],
      expirationDate: "2099-12-31",
      estimatedHours: course.duration,
      creditHours: 2,
      courseExpired: false,
      standing: { acknowledgedAt: null, enrollmentExpired: false },
    });

    const stranger = await signInAs(ctx, await quickLearner(ctx));
    expect((await call(ctx, "GET", url("activity"), { cookie: stranger })).statusCode).toBe(403);
    expect((await call(ctx, "GET", url("evaluation"), { cookie: stranger })).statusCode).toBe(403);
    expect((await call(ctx, "GET", url("activity"))).statusCode).toBe(401);
    const learnerWrite = await call(ctx, "PUT", url("activity"), { cookie, payload: accme() });
    expect(learnerWrite.statusCode).toBe(403);

    for (const bad of [
      accme({ expirationDate: "2026-02-30" }),
      accme({ releaseDate: "2027-01-01", expirationDate: "2026-12-31" }),
      accme({ partialCreditStep: 0.125 }),
      accme({ attestationRequired: false }),
      accme({ attestationText: "" }),
      { ...accme(), retentionYears: undefined },
      { ...accme(), unknown: true },
    ]) {
      const refused = await call(ctx, "PUT", url("activity"), {
        cookie: adminCookie,
        payload: bad,
      });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    // Nothing changed.
    expect((await call(ctx, "GET", url("activity"), { cookie })).json().expirationDate).toBe(
      "2099-12-31",
    );
  });

  it("takes the steps only in the fixed order, then issues a certificate with the credit claimed", async () => {
    const { course, learner, cookie, url, completion } = await setup();
    expect((await completion()).next).toBe("acknowledge");
    expect((await completion()).steps.map((s) => [s.key, s.required])).toEqual([
      ["acknowledge", true],
      ["modules", true],
      ["review", false],
      ["exam", false],
      ["evaluation", true],
      ["attestation", true],
      ["certificate", true],
    ]);

    // Module 1 stays locked until the acknowledgement.
    const early = await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: course.id,
      moduleId: course.modules[0]!.id,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(CREDIT_MESSAGES.acknowledgeFirst);
    const evaluateEarly = await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers },
    });
    expect(evaluateEarly.statusCode).toBe(409);
    const attestEarly = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1.75 },
    });
    expect(attestEarly.statusCode).toBe(409);

    const ack = await call(ctx, "POST", url("acknowledge"), { cookie });
    expect(ack.statusCode).toBe(200);
    expect(ack.json().acknowledgedAt).toBe(clock.toISOString());
    // Asking again answers the first time.
    expect((await call(ctx, "POST", url("acknowledge"), { cookie })).json()).toEqual(ack.json());
    expect((await completion()).next).toBe("modules");

    // The evaluation waits for the modules; the attestation for the evaluation.
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const stillEarly = await call(ctx, "POST", url("evaluation"), { cookie, payload: { answers } });
    expect(stillEarly.statusCode).toBe(409);
    expect(stillEarly.json().message).toBe(CREDIT_MESSAGES.outOfOrder("modules"));
    await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: course.id,
      moduleId: course.modules[1]!.id,
    });
    expect((await completion()).next).toBe("evaluation");
    const attestBeforeEvaluation = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1.75 },
    });
    expect(attestBeforeEvaluation.statusCode).toBe(409);
    expect(attestBeforeEvaluation.json().message).toBe(CREDIT_MESSAGES.outOfOrder("evaluation"));
    expect(await certificatesOf(cookie)).toEqual([]);

    const evaluated = await call(ctx, "POST", url("evaluation"), { cookie, payload: { answers } });
    expect(evaluated.statusCode, evaluated.body).toBe(201);
    const again = await call(ctx, "POST", url("evaluation"), { cookie, payload: { answers } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CREDIT_MESSAGES.evaluationDone);
    expect((await call(ctx, "GET", url("evaluation"), { cookie })).json().submitted).toBe(true);
    expect((await completion()).next).toBe("attestation");
    expect(await certificatesOf(cookie)).toEqual([]);

    const attested = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1.75 },
    });
    expect(attested.statusCode, attested.body).toBe(200);
    expect(attested.json()).toEqual({ attestedAt: clock.toISOString(), creditsClaimed: 1.75 });
    const repeated = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1.75 },
    });
    expect(repeated.statusCode).toBe(409);
    expect(repeated.json().message).toBe(CREDIT_MESSAGES.attestationDone);

    const done = await completion();
    expect(done.next).toBeNull();
    expect(done.isCompleted).toBe(true);
    expect(done.steps.filter((s) => s.required).every((s) => s.done && s.doneAt)).toBe(true);
    const [certificate] = await certificatesOf(cookie);
    expect(certificate!.learnerName).toBe("Анна Иванова");
    expect(certificate!.credit).toMatchObject({
      creditsClaimed: 1.75,
      accreditationStatement: accme().accreditationStatement,
      attestedAt: clock.toISOString(),
    });

    const types = (
      await ctx.database.db
        .select({ type: auditEvents.type, details: auditEvents.details })
        .from(auditEvents)
        .where(eq(auditEvents.learnerId, learner.id))
        .orderBy(auditEvents.seq)
    ).map((e) => e.type);
    expect(types).toEqual([
      "enrollment.created",
      "activity.acknowledged",
      "module.completed",
      "module.completed",
      "evaluation.submitted",
      "attestation.signed",
      "course.completed",
      "certificate.issued",
    ]);
    const [signed] = await ctx.database.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.type, "attestation.signed"));
    expect(signed!.details).toMatchObject({
      statement: STATEMENT,
      creditsClaimed: 1.75,
      designatedCredits: 2,
      ip: "127.0.0.1",
    });
  });

  it("lets an administrator read a learner's steps, and no learner read another's", async () => {
    const { adminCookie, learner, url, cookie } = await setup();
    const asAdmin = await call(ctx, "GET", `${url("completion")}?userId=${learner.id}`, {
      cookie: adminCookie,
    });
    expect(asAdmin.statusCode).toBe(200);
    expect((asAdmin.json() as Completion).next).toBe("acknowledge");
    expect((await call(ctx, "GET", url("completion"), { cookie: adminCookie })).statusCode).toBe(
      400,
    );
    const other = await quickLearner(ctx);
    const peek = await call(ctx, "GET", `${url("completion")}?userId=${other.id}`, { cookie });
    expect(peek.statusCode).toBe(403);
  });

  it("holds claims to the designated credit and its steps, and the statement to its exact text", async () => {
    const { learner, course, cookie, url } = await setup(accme({ evaluationRequired: false }));
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const attest = (payload: object) => call(ctx, "POST", url("attest"), { cookie, payload });
    for (const [claim, message] of [
      [2.25, CREDIT_MESSAGES.claimTooHigh(2)],
      [1.3, CREDIT_MESSAGES.claimOffStep(0.25)],
      [0, CREDIT_MESSAGES.claimOffStep(0.25)],
      [-1, CREDIT_MESSAGES.claimOffStep(0.25)],
      [null, CREDIT_MESSAGES.claimNeeded],
    ] as const) {
      const refused = await attest({ statement: STATEMENT, creditsClaimed: claim });
      expect(refused.statusCode, String(claim)).toBe(409);
      expect(refused.json().message).toBe(message);
    }
    const changed = await attest({ statement: `${STATEMENT} `, creditsClaimed: 1 });
    expect(changed.json().message).toBe(CREDIT_MESSAGES.statementChanged);
    expect((await attest({ statement: STATEMENT, creditsClaimed: "2" })).statusCode).toBe(400);
    expect((await attest({ creditsClaimed: 2 })).statusCode).toBe(400);
    expect(await ctx.database.db.select().from(attestations)).toEqual([]);

    expect((await attest({ statement: STATEMENT, creditsClaimed: 2 })).statusCode).toBe(200);
  });

  it("awards the designated credit when the course has no partial credit", async () => {
    const { learner, course, cookie, url } = await setup(
      accme({ evaluationRequired: false, acknowledgementRequired: false, partialCreditStep: null }),
    );
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const partial = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1 },
    });
    expect(partial.json().message).toBe(CREDIT_MESSAGES.noPartialCredit);
    const whole = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: null },
    });
    expect(whole.json().creditsClaimed).toBe(2);
    expect((await certificatesOf(cookie))[0]!.credit!.creditsClaimed).toBe(2);
  });

  it("closes an expired activity to everyone and an enrollment when its validity window runs out", async () => {
    const lastDay = dayOf(new Date(Date.now() + 6 * 86_400_000));
    const { adminCookie, course, learner, cookie, url } = await setup(
      accme({ expirationDate: lastDay, enrollmentValidDays: 3 }),
    );
    const activity = (await call(ctx, "GET", url("activity"), { cookie })).json();
    const enrolledAt = new Date(activity.standing.enrolledAt).getTime();
    expect(activity.standing.enrollmentExpiresAt).toBe(
      new Date(enrolledAt + 3 * 86_400_000).toISOString(),
    );
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 1);

    // Just past the window, which runs from the enrollment (a moment after the clock's start).
    advanceDays(3.01);
    const late = await postProgress(ctx, cookie, {
      userId: learner.id,
      courseId: course.id,
      moduleId: course.modules[1]!.id,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(CREDIT_MESSAGES.enrollmentExpired);
    expect(
      (await call(ctx, "GET", url("activity"), { cookie })).json().standing.enrollmentExpired,
    ).toBe(true);

    // Without the window, a learner may start until the last day; after it, nobody can.
    const reopened = await call(ctx, "PUT", url("activity"), {
      cookie: adminCookie,
      payload: accme({ expirationDate: lastDay }),
    });
    expect(reopened.statusCode).toBe(200);
    const other = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, other.id, course.id);
    const otherCookie = await signInAs(ctx, other);
    expect((await call(ctx, "POST", url("acknowledge"), { cookie: otherCookie })).statusCode).toBe(
      200,
    );
    advanceDays(4);
    const expired = await call(ctx, "POST", url("acknowledge"), { cookie: otherCookie });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().message).toBe(CREDIT_MESSAGES.courseExpired);
    expect(
      (await call(ctx, "GET", url("activity"), { cookie: adminCookie })).json().courseExpired,
    ).toBe(true);
    const third = await quickLearner(ctx);
    const refused = await postEnrollment(ctx, adminCookie, {
      userId: third.id,
      courseId: course.id,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(CREDIT_MESSAGES.courseExpired);
    expect(await certificatesOf(cookie)).toEqual([]);
  });

  it("opens the final exam only in order and while the enrollment is valid", async () => {
    clock = new Date();
    const { adminCookie, course, cookie } = await buildExamCourse(ctx, video);
    const start = () => call(ctx, "POST", `/api/courses/${course.id}/exam/attempts`, { cookie });
    const activity = (extra: Partial<ActivityInput>) =>
      call(ctx, "PUT", `/api/courses/${course.id}/activity`, {
        cookie: adminCookie,
        payload: { ...DEFAULT_ACTIVITY, ...extra },
      });
    // Modules done before the course asked for an acknowledgement: the exam waits for it.
    expect((await activity({ acknowledgementRequired: true })).statusCode).toBe(200);
    const early = await start();
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(CREDIT_MESSAGES.outOfOrder("about this activity"));

    expect((await activity({ enrollmentValidDays: 1 })).statusCode).toBe(200);
    advanceDays(1.01);
    const late = await start();
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(CREDIT_MESSAGES.enrollmentExpired);
    expect((await activity({})).statusCode).toBe(200);
    expect((await start()).statusCode).toBe(201);
  });

  it("keeps evaluation answers apart from who gave them, and reports them per item and as CSV", async () => {
    const { adminCookie, course, learner, cookie, url } = await setup(
      accme({ attestationRequired: false, partialCreditStep: null }),
    );
    const form = (await call(ctx, "GET", url("evaluation"), { cookie })).json();
    expect(form.items).toEqual(DEFAULT_EVALUATION_ITEMS);
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const post = (payload: object) => call(ctx, "POST", url("evaluation"), { cookie, payload });
    for (const bad of [
      { answers: answers.slice(1) },
      { answers: [...answers.slice(0, 4), { itemId: "objectives", value: 2 }] },
      { answers: [{ itemId: "objectives", value: 6 }, ...answers.slice(1)] },
      { answers: [{ itemId: "objectives", value: "five" }, ...answers.slice(1)] },
      { answers: [...answers, { itemId: "nope", value: 3 }] },
      { answers: [...answers.slice(0, 4), { itemId: "comments", value: "x".repeat(2001) }] },
    ]) {
      expect((await post(bad)).statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    expect(await ctx.database.db.select().from(evaluationSubmissions)).toEqual([]);
    expect((await post({ answers })).statusCode).toBe(201);

    // A second learner, with a new item added to the form meanwhile.
    const edited = await call(ctx, "PUT", url("evaluation"), {
      cookie: adminCookie,
      payload: {
        items: [
          ...DEFAULT_EVALUATION_ITEMS,
          { kind: "likert", text: "I will change my practice.", required: false },
        ],
      },
    });
    expect(edited.statusCode).toBe(200);
    const added = edited.json().items[5];
    expect(added.id).toMatch(/^item-/);
    const second = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, second.id, course.id);
    const secondCookie = await signInAs(ctx, second);
    await call(ctx, "POST", url("acknowledge"), { cookie: secondCookie });
    await completeViaApi(ctx, secondCookie, second.id, course, 2);
    const secondAnswers = [
      { itemId: "objectives", value: 3 },
      { itemId: "relevance", value: 4 },
      { itemId: "balance", value: 4 },
      { itemId: "faculty", value: 5 },
      { itemId: added.id, value: 4 },
    ];
    const secondPost = await call(ctx, "POST", url("evaluation"), {
      cookie: secondCookie,
      payload: { answers: secondAnswers },
    });
    expect(secondPost.statusCode).toBe(201);

    // The answers hold no learner, enrollment or day.
    const stored = await ctx.database.db.select().from(evaluationResponses);
    expect(stored).toHaveLength(2);
    const columns = Object.keys(stored[0]!).sort();
    expect(columns).toEqual([
      "answers",
      "courseId",
      "courseTitle",
      "id",
      "items",
      "month",
      "retainUntil",
    ]);
    expect(stored.every((r) => r.month === `${dayOf(clock).slice(0, 7)}-01`)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(learner.id);

    const results = (
      await call(ctx, "GET", url("evaluation/results"), { cookie: adminCookie })
    ).json() as EvaluationResults;
    expect(results.responses).toBe(2);
    const objectives = results.items.find((i) => i.id === "objectives")!;
    expect(objectives).toMatchObject({ mean: 4, distribution: [0, 0, 1, 0, 1], answered: 2 });
    expect(results.items.find((i) => i.id === "comments")!.comments).toEqual([
      "Клинические примеры были полезны",
    ]);
    expect(results.items.find((i) => i.id === added.id)!.mean).toBe(4);
    expect(JSON.stringify(results)).not.toMatch(
      new RegExp(`${learner.id}|${learner.email}|${second.id}`),
    );
    expect((await call(ctx, "GET", url("evaluation/results"), { cookie })).statusCode).toBe(403);

    const csv = await call(ctx, "GET", `${url("evaluation/results")}?format=csv`, {
      cookie: adminCookie,
    });
    expect(csv.headers["content-type"]).toContain("text/csv");
    const rows = parseCsv(csv.body.replace(/^\ufeff/, ""));
    expect(rows[0]).toEqual([
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
    expect(rows).toContainEqual([
      "The learning objectives were met.",
      "Rating",
      "2",
      "4",
      "0",
      "0",
      "1",
      "0",
      "1",
      "",
    ]);
    expect(rows).toContainEqual([
      "Comments and suggestions",
      "Comment",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "Клинические примеры были полезны",
    ]);
  });

  it("withholds the certificate until the licence a course asks for is entered, then prints it and reports it", async () => {
    const { adminCookie, course, learner, cookie, url } = await setup(
      accme({ evaluationRequired: false, acknowledgementRequired: false }),
    );
    const settings: CreditSettingsBody = {
      sponsorName: "Credo Medical Education",
      sponsorAddress: "1 Main St, Springfield",
      deliveryMethod: "Internet-based enduring material",
      fieldsOfStudy: [
        { field: "Cardiology", credits: 1.5 },
        { field: "Ethics", credits: 0.5 },
      ],
      registryNumber: "NASBA 112233",
      officialName: "Grace Hopper",
      officialTitle: "Director of CME",
      licenceRequired: true,
    };
    const saved = await call(ctx, "PUT", url("credit-settings"), {
      cookie: adminCookie,
      payload: settings,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const attested = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1 },
    });
    expect(attested.statusCode).toBe(200);
    expect(await certificatesOf(cookie)).toEqual([]);
    const waiting = (await call(ctx, "GET", url("completion"), { cookie })).json() as Completion;
    expect(waiting.next).toBe("certificate");

    const badNpn = await call(ctx, "PUT", "/api/profile/licence", {
      cookie,
      payload: { licenceType: "", licenceNumber: "", licenceState: "", npn: "12-34" },
    });
    expect(badNpn.statusCode).toBe(400);
    const licence = { licenceType: "MD", licenceNumber: "A-12345", licenceState: "CA", npn: "" };
    const put = await call(ctx, "PUT", "/api/profile/licence", { cookie, payload: licence });
    expect(put.statusCode).toBe(200);
    expect((await call(ctx, "GET", "/api/profile/licence", { cookie })).json()).toEqual(licence);

    const [certificate] = await certificatesOf(cookie);
    expect(certificate!.credit).toMatchObject({
      creditsClaimed: 1,
      sponsorName: "Credo Medical Education",
      registryNumber: "NASBA 112233",
      officialName: "Grace Hopper",
      licence,
      fieldsOfStudy: settings.fieldsOfStudy,
    });
    // The PDF prints the credit awarded, the prescribed content, the licence and the official.
    const signed = await call(ctx, "PUT", url("signature"), {
      cookie: adminCookie,
      payload: { dataUrl: `data:image/png;base64,${signaturePng.toString("base64")}` },
    });
    expect(signed.statusCode).toBe(200);
    const pdf = await call(ctx, "GET", `/api/certificates/${certificate!.id}/pdf`, { cookie });
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, " ");
    for (const expected of [
      "Анна Иванова",
      "1 AMA PRA Category 1 credit hour",
      "Credo Medical Education",
      "1 Main St, Springfield",
      "Internet-based enduring material",
      "Cardiology: 0.75",
      "Ethics: 0.25",
      "NASBA 112233",
      "MD A-12345",
      "CA",
      "Grace Hopper",
      "Director of CME",
      "Credo Medical designates this enduring material",
    ]) {
      expect(text).toContain(expected);
    }

    // The public verification answer shows the certificate, never the learner's email.
    const verified = await call(ctx, "GET", `/api/certificates/verify/${certificate!.code}`);
    expect(verified.body).not.toContain(learner.email);

    const enrolledOn = (await call(ctx, "GET", url("activity"), { cookie }))
      .json()
      .standing.enrolledAt.slice(0, 10);
    const report = await call(ctx, "GET", url("credit-report"), { cookie: adminCookie });
    expect(report.statusCode).toBe(200);
    const rows = parseCsv(report.body.replace(/^\ufeff/, ""));
    expect(rows[0]).toEqual([
      "Learner name",
      "Email",
      "Licence type",
      "Licence number",
      "Issuing state or board",
      "NPN",
      "Enrolled on",
      "Completed on",
      "Attested on",
      "Credits claimed",
      "Credit type",
      "Credits: Cardiology",
      "Credits: Ethics",
      "Exam score",
      "Certificate code",
    ]);
    expect(rows[1]).toEqual([
      "Анна Иванова",
      learner.email,
      "MD",
      "A-12345",
      "CA",
      "",
      enrolledOn,
      certificate!.completedAt.slice(0, 10),
      attested.json().attestedAt.slice(0, 10),
      "1",
      "AMA PRA Category 1",
      "0.75",
      "0.25",
      "",
      certificate!.code,
    ]);
    expect((await call(ctx, "GET", url("credit-report"), { cookie })).statusCode).toBe(403);
  });

  it("keeps every credit record when the learner and the course are deleted, and refuses to delete them early", async () => {
    const { adminCookie, course, learner, cookie, url } = await setup(
      accme({ partialCreditStep: null }),
    );
    await call(ctx, "POST", url("acknowledge"), { cookie });
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    await call(ctx, "POST", url("evaluation"), { cookie, payload: { answers } });
    await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: null },
    });

    const deletedLearner = await call(ctx, "DELETE", `/api/users/learners/${learner.id}`, {
      cookie: adminCookie,
    });
    expect(deletedLearner.statusCode).toBe(200);
    const deletedCourse = await call(ctx, "DELETE", `/api/courses/${course.id}`, {
      cookie: adminCookie,
    });
    expect(deletedCourse.statusCode).toBe(200);

    const db = ctx.database.db;
    for (const table of [acknowledgements, evaluationSubmissions, attestations]) {
      const [row] = await db.select().from(table);
      expect(row).toMatchObject({
        userId: null,
        courseId: null,
        enrollmentId: null,
        learnerName: "Анна Иванова",
        learnerEmail: learner.email,
        courseTitle: course.title,
      });
      // Kept for the course's retention (6 years by default).
      const sixYears = new Date(clock);
      sixYears.setUTCFullYear(sixYears.getUTCFullYear() + 6);
      expect(row!.retainUntil.toISOString()).toBe(sixYears.toISOString());
    }
    expect(await db.select().from(evaluationResponses)).toHaveLength(1);
    const [attestation] = await db.select().from(attestations);
    expect(attestation!.statement).toBe(STATEMENT);
    expect(await db.select().from(certificates)).toHaveLength(1);

    // Neither rewritten nor deleted before the retention runs out.
    await expect(db.execute(sql`update attestations set credits_claimed = 5`)).rejects.toThrow();
    await expect(db.execute(sql`update acknowledgements set learner_name = 'X'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from evaluation_submissions`)).rejects.toThrow();
    await expect(db.execute(sql`delete from evaluation_responses`)).rejects.toThrow();
    await expect(db.execute(sql`update certificates set credit = null`)).rejects.toThrow();
  });

  it("leaves a course without an activity exactly as before: modules, then the certificate", async () => {
    const { course, learner, cookie, completion } = await setup(null, 1);
    const required = (await completion()).steps.filter((s) => s.required);
    expect(required.map((s) => s.key)).toEqual(["modules", "certificate"]);
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const [certificate] = await certificatesOf(cookie);
    expect(certificate!.credit).toBeNull();
    expect((await completion()).next).toBeNull();
  });

  it("stores the official's signature only when its bytes are a PNG or JPEG, and serves it to anyone", async () => {
    const { adminCookie, url } = await setup(null, 1);
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
      "base64",
    );
    const put = (dataUrl: string) =>
      call(ctx, "PUT", url("signature"), { cookie: adminCookie, payload: { dataUrl } });
    const html = Buffer.from("<html><script>alert(1)</script></html>").toString("base64");
    expect((await put(`data:image/png;base64,${html}`)).statusCode).toBe(400);
    expect((await put(`data:image/jpeg;base64,${png.toString("base64")}`)).statusCode).toBe(400);
    expect((await put(`data:image/svg+xml;base64,${html}`)).statusCode).toBe(400);
    const saved = await put(`data:image/png;base64,${png.toString("base64")}`);
    expect(saved.statusCode).toBe(200);
    const { signatureId } = saved.json();
    const served = await call(ctx, "GET", `/api/signatures/${signatureId}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.rawPayload.equals(png)).toBe(true);
    const removed = await call(ctx, "DELETE", url("signature"), { cookie: adminCookie });
    expect(removed.json().signatureId).toBeNull();
    // The image stays for the certificates that printed it.
    expect((await call(ctx, "GET", `/api/signatures/${signatureId}`)).statusCode).toBe(200);
  });
});
