import {
  type Activity,
  type ActivityBody,
  type ClaimedCredit,
  type Course,
  withCreditText,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { EnrollmentsService } from "../../learning";
import { type CompletionStep, defineStep, type StepUnit } from "../../learning";
import type { Events } from "../../lib/events";
import type { Actor, AuditEventInput, AuditService } from "../../platform";
import { fieldChanges } from "../../platform";
import { acknowledgeFirst, courseNotFound, notEnrolled } from "./activity.errors";
import {
  type ActivitySettings,
  creditSettingsOf,
  loadActivity,
  retainUntil,
} from "./activity.read-model";
import { type ActivityValues, createActivityRepository } from "./activity.repository";
import {
  activityFields,
  assertOpen,
  enrollmentEndsAt,
  isCourseExpired,
  validUntil,
} from "./activity-rules";

/**
 * The activity page as a step of completion: acknowledged before the modules when the course
 * asks for it. Its dates also close every step of the course: nothing is taken after the
 * expiration date, or after the enrollment's validity window.
 */
export const acknowledgeStep = defineStep<ActivitySettings>({
  key: "acknowledge",
  load: loadActivity,
  record: {
    isRequired: (activity) => activity?.acknowledgementRequired ?? false,
    async doneAt(tx, enrollment) {
      const row = await createActivityRepository(tx).acknowledgementOf(enrollment.id);
      return row?.acknowledgedAt ?? null;
    },
  },
  // The player says what opening the first module waits for in its own words.
  refusal: (later) => (later === "modules" ? acknowledgeFirst() : undefined),
  assertOpen: (enrollment, activity, now) => assertOpen(activity, enrollment, now),
});

export interface ActivityServiceDeps {
  db: Database;
  /** The courses feature: the course with the credit types it offers. */
  courses: { findMany(ids: string[]): Promise<Map<string, Course>> };
  users: { findUser(id: string): Promise<{ name: string; email: string } | undefined> };
  /** Enrollments: the learner's row, and the unit of work every learner step runs in. */
  enrollments: Pick<EnrollmentsService, "findRow" | "takeStep">;
  /** The clock of expiry and validity; tests pass one they move by hand. */
  now?: () => Date;
  /** Every edit of the row is an audit event, written in the edit's transaction. */
  audit: Pick<AuditService, "append">;
  /** The steps and dates the row holds decide completion: an edit publishes course.rules-changed. */
  events: Pick<Events, "transaction">;
  /**
   * The learner's attestation as the activity page shows it (the attestations feature's
   * read model). Handed in: the attestation is itself a step taken through this service.
   */
  attestationOf(db: Executor, enrollmentId: string): Promise<AttestationShown | undefined>;
}

/** What the activity page shows of a learner's attestation. */
interface AttestationShown {
  attestedAt: Date;
  creditsClaimed: number | null;
  credits: Pick<
    ClaimedCredit,
    "creditTypeId" | "name" | "amount" | "accreditingBody" | "providerNumber"
  >[];
}

/** Who edits the activity row, and which audit event their edit is (activity.updated…). */
export interface ActivityEdit {
  actor: Actor;
  type: AuditEventInput["type"];
}

/** Who asks: administrators see any course; a learner only one they are enrolled in. */
export type Viewer = { id: string; role: "admin" | "learner" };

/** What a learner's credit step (acknowledgement, evaluation, attestation) writes with. */
export interface CreditStepUnit extends StepUnit {
  /** The course's activity, as the step reads it. */
  activity: ActivitySettings;
  /** What the step's credit record keeps of its learner and course, which it outlives. */
  identity: {
    enrollmentId: string;
    userId: string;
    courseId: string;
    learnerName: string;
    learnerEmail: string;
    courseTitle: string;
  };
}

/**
 * The course's activity page and its rules (acknowledgement, expiry, validity, retention).
 * The activity row also holds the evaluation form and the credit settings: the evaluations
 * and credit features write them through `save`, and read the row through `read`.
 */
export function createActivityService(deps: ActivityServiceDeps) {
  const { db } = deps;
  const repo = createActivityRepository(db);
  const now = deps.now ?? (() => new Date());

  async function courseOf(courseId: string) {
    const course = (await deps.courses.findMany([courseId])).get(courseId);
    if (!course) throw courseNotFound();
    return course;
  }

  /**
   * The course (404 when unknown), its activity, and the viewer's enrollment: a learner
   * without one is refused (403); an administrator has none.
   */
  async function read(viewer: Viewer, courseId: string) {
    const course = await courseOf(courseId);
    let enrollment: Awaited<ReturnType<typeof deps.enrollments.findRow>>;
    if (viewer.role !== "admin") {
      enrollment = await deps.enrollments.findRow(viewer.id, courseId);
      if (!enrollment) throw notEnrolled();
    }
    return { course, enrollment, activity: await repo.activityOf(courseId) };
  }

  async function activity(viewer: Viewer, courseId: string): Promise<Activity> {
    const { course, enrollment, activity: row } = await read(viewer, courseId);
    const at = now();
    let standing: Activity["standing"] = null;
    if (enrollment) {
      const ack = await repo.acknowledgementOf(enrollment.id);
      const attestation = await deps.attestationOf(db, enrollment.id);
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
              credits: attestation.credits.map(withCreditText),
            }
          : null,
      };
    }
    return {
      courseId,
      ...activityFields(row),
      estimatedHours: course.duration,
      creditTypes: course.creditTypes,
      courseExpired: isCourseExpired(row, at),
      credit: creditSettingsOf(row),
      standing,
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  }

  /**
   * Saves the columns named (404 for an unknown course), creating the row with the defaults,
   * and records the edit as `edit.type` with the columns that changed, in one transaction.
   * A save that changes nothing records nothing.
   */
  async function save(courseId: string, values: ActivityValues, edit: ActivityEdit) {
    const course = await courseOf(courseId);
    return deps.events.transaction(db, async (tx, publish) => {
      const txRepo = createActivityRepository(tx);
      const before = await txRepo.lockActivity(courseId);
      const row = await txRepo.saveActivity(courseId, values);
      const changes = fieldChanges(
        before,
        row,
        Object.keys(values) as (keyof typeof row & string)[],
      );
      if (changes.length) {
        await deps.audit.append(tx, {
          type: edit.type,
          actor: edit.actor,
          courseId,
          details: { courseTitle: course.title, changes },
        });
        await publish("course.rules-changed", { courseId });
      }
      return row;
    });
  }

  /**
   * Runs a learner's credit step in the enrollments' unit of work (the enrollment locked, the
   * course online and the step in order), with the activity as `step` reads it and what a
   * credit record keeps of the learner and the course when either is deleted later.
   */
  async function takeCreditStep<T>(input: {
    userId: string;
    courseId: string;
    step: CompletionStep<ActivitySettings>;
    write: (unit: CreditStepUnit) => Promise<T>;
  }): Promise<T> {
    const { userId, courseId, step } = input;
    const user = await deps.users.findUser(userId);
    return deps.enrollments.takeStep({
      userId,
      courseId,
      step: step.key,
      async write(unit) {
        const identity = {
          enrollmentId: unit.enrollment.id,
          userId,
          courseId,
          learnerName: user?.name ?? "",
          learnerEmail: user?.email ?? "",
          courseTitle: unit.context.course.title,
        };
        return input.write({ ...unit, activity: unit.settingsOf(step), identity });
      },
    });
  }

  return {
    course: courseOf,
    read,
    activity,
    save,
    takeCreditStep,

    /**
     * Stores a responsible official's signature image, kept for good: certificates point
     * at the signature they were signed with. The credit settings then name it.
     */
    insertSignature: (contentType: string, bytes: Buffer) =>
      repo.insertSignature(contentType, bytes),

    /** A stored signature image, if any. */
    signatureOf: (id: string) => repo.signatureOf(id),

    async saveActivity(courseId: string, body: ActivityBody, viewer: Viewer) {
      await save(courseId, body, { actor: viewer, type: "activity.updated" });
      return activity(viewer, courseId);
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
      return takeCreditStep({
        userId,
        courseId,
        step: acknowledgeStep,
        async write(unit) {
          const { tx, enrollment, identity, activity } = unit;
          const txRepo = createActivityRepository(tx);
          const existing = await txRepo.acknowledgementOf(enrollment.id);
          if (existing) return { acknowledgedAt: existing.acknowledgedAt.toISOString() };
          const at = now();
          const row = await txRepo.insertAcknowledgement({
            ...identity,
            acknowledgedAt: at,
            retainUntil: retainUntil(activity, at),
          });
          unit.audit({ type: "activity.acknowledged" });
          return { acknowledgedAt: row!.acknowledgedAt.toISOString() };
        },
      });
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
