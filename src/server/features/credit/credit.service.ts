import { randomBytes } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import {
  type Activity,
  type ActivityBody,
  type AttestBody,
  type CreditSettingsBody,
  EMPTY_LICENCE,
  type EvaluationAnswersBody,
  type EvaluationFormBody,
  type EvaluationItem,
  isOnStep,
  type Licence,
  SIGNATURE_MAX_BYTES,
} from "../../../contract";
import type { Database } from "../../db/client";
import { forbidden } from "../../plugins/errors";
import type { AuditService } from "../audit/audit.service";
import type { StepUnit } from "../enrollments/completion-steps";
import type { EnrollmentsService } from "../enrollments/enrollments.service";
import { type ActivitySettings, acknowledgeStep } from "./activity.step";
import { attestationStep } from "./attestation.step";
import {
  attestationDone,
  attestationNotAsked,
  badAnswers,
  claimNeeded,
  claimOffStep,
  claimTooHigh,
  courseNotFound,
  evaluationDone,
  noPartialCredit,
  notAnImage,
  signatureNotFound,
  statementChanged,
} from "./credit.errors";
import { createCreditRepository } from "./credit.repository";
import {
  activityFields,
  creditSettingsOf,
  enrollmentEndsAt,
  evaluationItemsOf,
  isCourseExpired,
  licenceOf,
  retainUntil,
  validUntil,
} from "./credit-rules";
import { evaluationStep } from "./evaluation.step";

export interface CreditServiceDeps {
  db: Database;
  audit: AuditService;
  courses: {
    findRow(
      id: string,
    ): Promise<
      { duration: number; creditHours: number | null; creditType: string | null } | undefined
    >;
  };
  users: { findUser(id: string): Promise<{ name: string; email: string } | undefined> };
  /** Enrollments: the learner's row, and the unit of work every learner step runs in. */
  enrollments: Pick<EnrollmentsService, "findRow" | "takeStep" | "settleLearner">;
  /** The clock of expiry and validity; tests pass one they move by hand. */
  now?: () => Date;
}

/** Who asks: administrators see any course; a learner only one they are enrolled in. */
export type Viewer = { id: string; role: "admin" | "learner" };

/** A request's origin, kept with an attestation. */
export type Origin = { ip: string; userAgent: string | null };

const SIGNATURE_TYPES = new Set(["image/png", "image/jpeg"]);

/**
 * The credit claim: a course's activity and credit settings, the learner's licence, and the
 * steps a learner takes for credit (acknowledgement, evaluation, attestation), each recorded
 * on the audit chain in its own transaction.
 */
/** Each learner step of the credit claim, whose settings (the course's activity) it reads. */
const stepOf = {
  acknowledge: acknowledgeStep,
  evaluation: evaluationStep,
  attestation: attestationStep,
};

export function createCreditService(deps: CreditServiceDeps) {
  const { db, audit } = deps;
  const repo = createCreditRepository(db);
  const now = deps.now ?? (() => new Date());

  async function courseOf(courseId: string) {
    const course = await deps.courses.findRow(courseId);
    if (!course) throw courseNotFound();
    return course;
  }

  /** The learner's enrollment, refused (403) when there is none; undefined for admins. */
  async function enrollmentOf(viewer: Viewer, courseId: string) {
    if (viewer.role === "admin") return undefined;
    const enrollment = await deps.enrollments.findRow(viewer.id, courseId);
    if (!enrollment) throw forbidden("You are not enrolled in this course.");
    return enrollment;
  }

  async function activity(viewer: Viewer, courseId: string): Promise<Activity> {
    const course = await courseOf(courseId);
    const enrollment = await enrollmentOf(viewer, courseId);
    const row = await repo.activityOf(courseId);
    const at = now();
    let standing: Activity["standing"] = null;
    if (enrollment) {
      const ack = await repo.acknowledgementOf(enrollment.id);
      const attestation = await repo.attestationOf(enrollment.id);
      const end = enrollmentEndsAt(row, enrollment.createdAt);
      standing = {
        acknowledgedAt: ack?.acknowledgedAt.toISOString() ?? null,
        enrolledAt: enrollment.createdAt.toISOString(),
        enrollmentExpiresAt: end?.toISOString() ?? null,
        enrollmentExpired: Boolean(end && at >= end),
        attestation: attestation
          ? {
              attestedAt: attestation.attestedAt.toISOString(),
              creditsClaimed: attestation.creditsClaimed,
            }
          : null,
      };
    }
    return {
      courseId,
      ...activityFields(row),
      estimatedHours: course.duration,
      creditHours: course.creditHours,
      creditType: course.creditType,
      courseExpired: isCourseExpired(row, at),
      credit: creditSettingsOf(row),
      standing,
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  }

  /**
   * Runs a learner's step in the enrollments' unit of work (the enrollment locked, the course
   * online and the step in order), with what a credit record keeps of the learner and the
   * course when either is deleted later.
   */
  async function step<T>(
    userId: string,
    courseId: string,
    key: "acknowledge" | "evaluation" | "attestation",
    run: (
      unit: StepUnit & {
        activity: ActivitySettings;
        identity: {
          enrollmentId: string;
          userId: string;
          courseId: string;
          learnerName: string;
          learnerEmail: string;
          courseTitle: string;
        };
      },
    ) => Promise<T>,
  ): Promise<T> {
    const user = await deps.users.findUser(userId);
    return deps.enrollments.takeStep({
      userId,
      courseId,
      step: key,
      async write(unit) {
        const identity = {
          enrollmentId: unit.enrollment.id,
          userId,
          courseId,
          learnerName: user?.name ?? "",
          learnerEmail: user?.email ?? "",
          courseTitle: unit.context.course.title,
        };
        return run({ ...unit, activity: unit.settingsOf(stepOf[key]), identity });
      },
    });
  }

  /** New items get an id; the ids of kept items stay, so answers stay with their item. */
  function withIds(items: EvaluationFormBody["items"]): EvaluationItem[] {
    const used = new Set(items.flatMap((i) => (i.id ? [i.id] : [])));
    return items.map((item) => {
      let id = item.id;
      while (!id || (used.has(id) && !item.id)) id = `item-${randomBytes(4).toString("hex")}`;
      used.add(id);
      return { id, kind: item.kind, text: item.text, required: item.required };
    });
  }

  /** Every answer names an item of the form once, has the item's kind, and nothing required is left out. */
  function checkAnswers(items: EvaluationItem[], answers: EvaluationAnswersBody["answers"]) {
    const byId = new Map(items.map((i) => [i.id, i]));
    const seen = new Set<string>();
    const kept: { itemId: string; value: number | string }[] = [];
    for (const answer of answers) {
      const item = byId.get(answer.itemId);
      if (!item) throw badAnswers(`no item ${answer.itemId} in this evaluation`);
      if (seen.has(item.id)) throw badAnswers(`item ${item.id} is answered twice`);
      seen.add(item.id);
      if (item.kind === "likert" && typeof answer.value !== "number") {
        throw badAnswers(`rate "${item.text}" from 1 to 5`);
      }
      if (item.kind === "text" && typeof answer.value !== "string") {
        throw badAnswers(`answer "${item.text}" in words`);
      }
      const value = typeof answer.value === "string" ? answer.value.trim() : answer.value;
      if (value !== "") kept.push({ itemId: item.id, value });
    }
    const missing = items.find((i) => i.required && !kept.some((a) => a.itemId === i.id));
    if (missing) throw badAnswers(`"${missing.text}" is required`);
    return kept;
  }

  return {
    course: courseOf,
    activity,

    async saveActivity(courseId: string, body: ActivityBody, viewer: Viewer) {
      await courseOf(courseId);
      await repo.saveActivity(courseId, body);
      return activity(viewer, courseId);
    },

    async saveCreditSettings(courseId: string, body: CreditSettingsBody) {
      await courseOf(courseId);
      return creditSettingsOf(await repo.saveActivity(courseId, body));
    },

    /** Stores a PNG or JPEG checked by its bytes, not by what the browser claimed. */
    async saveSignature(courseId: string, dataUrl: string) {
      await courseOf(courseId);
      const [head, base64] = dataUrl.split(",", 2) as [string, string];
      const bytes = Buffer.from(base64, "base64");
      const detected = await fileTypeFromBuffer(bytes);
      const declared = head.slice("data:".length, head.indexOf(";"));
      if (
        bytes.length > SIGNATURE_MAX_BYTES ||
        !detected ||
        !SIGNATURE_TYPES.has(detected.mime) ||
        detected.mime !== declared
      ) {
        throw notAnImage();
      }
      const signatureId = await repo.insertSignature(detected.mime, bytes);
      return creditSettingsOf(await repo.saveActivity(courseId, { signatureId }));
    },

    async removeSignature(courseId: string) {
      await courseOf(courseId);
      return creditSettingsOf(await repo.saveActivity(courseId, { signatureId: null }));
    },

    async signature(id: string) {
      const row = await repo.signatureOf(id);
      if (!row) throw signatureNotFound();
      return row;
    },

    /** A signature's image for a certificate's PDF; null when it is gone. */
    async signatureBytes(id: string): Promise<Uint8Array | null> {
      return (await repo.signatureOf(id))?.bytes ?? null;
    },

    async licence(userId: string): Promise<Licence> {
      return licenceOf(await repo.licenceOf(userId)) ?? EMPTY_LICENCE;
    },

    /** Saves the licence, then completes any course that waited only for it. */
    async saveLicence(viewer: Viewer, body: Licence): Promise<Licence> {
      await repo.saveLicence(viewer.id, body);
      if (viewer.role === "learner") await deps.enrollments.settleLearner(viewer.id, viewer);
      return body;
    },

    /**
     * The courses whose enrollments end (an expiration date or a validity window), each with
     * when an enrollment made at a given time stops taking steps: for the expiry reminders.
     */
    async deadlines(): Promise<Map<string, (enrolledAt: Date) => Date | null>> {
      const rows = await repo.activitiesWithDeadlines();
      return new Map(
        rows.map((row) => [row.courseId, (enrolledAt: Date) => validUntil(row, enrolledAt)]),
      );
    },

    /** Records that the learner read the activity; asking again answers the first time. */
    async acknowledge(userId: string, courseId: string) {
      return step(
        userId,
        courseId,
        "acknowledge",
        async ({ tx, enrollment, identity, activity }) => {
          const txRepo = createCreditRepository(tx);
          const existing = await txRepo.acknowledgementOf(enrollment.id);
          if (existing) return { acknowledgedAt: existing.acknowledgedAt.toISOString() };
          const at = now();
          const row = await txRepo.insertAcknowledgement({
            ...identity,
            acknowledgedAt: at,
            retainUntil: retainUntil(activity, at),
          });
          await audit.append(tx, {
            type: "activity.acknowledged",
            actor: { id: userId, role: "learner" },
            learnerId: userId,
            courseId,
            details: { enrollmentId: enrollment.id },
          });
          return { acknowledgedAt: row!.acknowledgedAt.toISOString() };
        },
      );
    },

    async evaluationForm(viewer: Viewer, courseId: string) {
      await courseOf(courseId);
      const enrollment = await enrollmentOf(viewer, courseId);
      const items = evaluationItemsOf(await repo.activityOf(courseId));
      const submitted = enrollment ? Boolean(await repo.submissionOf(enrollment.id)) : false;
      return { items, submitted };
    },

    async saveEvaluationForm(courseId: string, body: EvaluationFormBody) {
      await courseOf(courseId);
      const row = await repo.saveActivity(courseId, { evaluationItems: withIds(body.items) });
      return { items: evaluationItemsOf(row), submitted: false };
    },

    /**
     * Records that the learner evaluated the course and, apart from it, the answers: the
     * response row holds no learner, enrollment or time finer than the month.
     */
    async submitEvaluation(userId: string, courseId: string, body: EvaluationAnswersBody) {
      return step(userId, courseId, "evaluation", async (unit) => {
        const { tx, enrollment, identity, activity: activityRow } = unit;
        const course = unit.context.course;
        const txRepo = createCreditRepository(tx);
        await unit.assertInOrder();
        if (await txRepo.submissionOf(enrollment.id)) throw evaluationDone();
        const items = evaluationItemsOf(activityRow);
        const answers = checkAnswers(items, body.answers);
        const at = now();
        const keepUntil = retainUntil(activityRow, at);
        await txRepo.insertSubmission({
          ...identity,
          submittedAt: at,
          retainUntil: keepUntil,
        });
        const month = `${at.toISOString().slice(0, 7)}-01`;
        // Rounded to the month too, so the retention date cannot tie a response to a day.
        const responseKeptUntil = new Date(`${keepUntil.toISOString().slice(0, 7)}-01T00:00:00Z`);
        responseKeptUntil.setUTCMonth(responseKeptUntil.getUTCMonth() + 1);
        await txRepo.insertResponse({
          courseId,
          courseTitle: course.title,
          items,
          answers,
          month,
          retainUntil: responseKeptUntil,
        });
        const actor = { id: userId, role: "learner" } as const;
        await audit.append(tx, {
          type: "evaluation.submitted",
          actor,
          learnerId: userId,
          courseId,
          details: { enrollmentId: enrollment.id },
        });
      });
    },

    /**
     * The learner affirms the course's statement, word for word as it stands, and claims
     * credit: the designated credit, or up to it in the course's steps.
     */
    async attest(userId: string, courseId: string, body: AttestBody, origin: Origin) {
      return step(userId, courseId, "attestation", async (unit) => {
        const { tx, enrollment, identity, activity: activityRow } = unit;
        const course = unit.context.course;
        const txRepo = createCreditRepository(tx);
        if (!activityRow?.attestationRequired) throw attestationNotAsked();
        await unit.assertInOrder();
        if (await txRepo.attestationOf(enrollment.id)) throw attestationDone();
        if (body.statement !== activityRow.attestationText) throw statementChanged();
        const designated = course.creditHours;
        const stepSize = activityRow.partialCreditStep;
        let claimed = designated;
        if (stepSize !== null && designated !== null) {
          if (body.creditsClaimed === null) throw claimNeeded();
          if (body.creditsClaimed > designated) throw claimTooHigh(designated);
          if (body.creditsClaimed <= 0 || !isOnStep(body.creditsClaimed, stepSize)) {
            throw claimOffStep(stepSize);
          }
          claimed = body.creditsClaimed;
        } else if (body.creditsClaimed !== null && body.creditsClaimed !== designated) {
          throw noPartialCredit();
        }
        const at = now();
        const row = await txRepo.insertAttestation({
          ...identity,
          statement: activityRow.attestationText,
          creditsClaimed: claimed,
          designatedCredits: designated,
          ip: origin.ip,
          userAgent: origin.userAgent,
          attestedAt: at,
          retainUntil: retainUntil(activityRow, at),
        });
        const actor = { id: userId, role: "learner" } as const;
        await audit.append(tx, {
          type: "attestation.signed",
          actor,
          learnerId: userId,
          courseId,
          details: {
            enrollmentId: enrollment.id,
            statement: row.statement,
            creditsClaimed: claimed,
            designatedCredits: designated,
            ip: origin.ip,
            userAgent: origin.userAgent,
          },
        });
        return { attestedAt: row.attestedAt.toISOString(), creditsClaimed: row.creditsClaimed };
      });
    },

    /** Evaluation answers of a course, apart from who gave them. */
    async responses(courseId: string) {
      const course = await courseOf(courseId);
      return {
        course,
        items: evaluationItemsOf(await repo.activityOf(courseId)),
        responses: await repo.responsesOf(courseId),
      };
    },
  };
}

export type CreditService = ReturnType<typeof createCreditService>;
