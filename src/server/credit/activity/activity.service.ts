import type { Course } from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { EnrollmentsService } from "../../learning";
import { type CompletionStep, defineStep, type StepUnit } from "../../learning";
import type { Events } from "../../lib/events";
import { type Actor, type AuditEventInput, type AuditService, fieldChanges } from "../../platform";
import { acknowledgeFirst, courseNotFound, notEnrolled } from "./activity.errors";
import { type ActivitySettings, loadActivity, retainUntil } from "./activity.read-model";
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
}

/** Who edits the activity row, and which audit event their edit is (activity.updated…). */
export interface ActivityEdit {
  actor: Actor;
  type: AuditEventInput["type"];
  /** What the event names besides the changes (the form step edited). */
  details?: Record<string, unknown>;
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
 * The course's activity page and its rules (acknowledgement, expiry, validity, retention),
 * the unit of every learner's credit step, and the one way the credit features edit their
 * settings of a course (`edit`): in one transaction with one audit event, and the course's
 * learners recomputed when anything changed.
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

  /**
   * An edit of a course's credit settings, the activity's own or another credit feature's
   * (404 for an unknown course): `write` saves them in the transaction and answers its rows
   * as they were and are; one audit event `edit.type` records the `fields` that changed, and
   * course.rules-changed follows when any did. An edit that changes nothing records nothing.
   */
  async function edit<T extends object>(
    courseId: string,
    edit: ActivityEdit,
    fields: readonly string[],
    write: (tx: Executor) => Promise<{ before: object; after: T }>,
  ): Promise<T> {
    const course = await courseOf(courseId);
    return deps.events.transaction(db, async (tx, publish) => {
      const { before, after } = await write(tx);
      const changes = fieldChanges<Record<string, unknown>>(
        before as Record<string, unknown>,
        after as Record<string, unknown>,
        fields,
      );
      if (changes.length) {
        await deps.audit.append(tx, {
          type: edit.type,
          actor: edit.actor,
          courseId,
          details: { courseTitle: course.title, ...edit.details, changes },
        });
        await publish("course.rules-changed", { courseId });
      }
      return after;
    });
  }

  /**
   * Runs a learner's credit step in the enrollments' unit of work (the enrollment locked, the
   * course online and the step in order), with the course's activity and what a credit
   * record keeps of the learner and the course when either is deleted later.
   */
  async function takeCreditStep<T>(input: {
    userId: string;
    courseId: string;
    step: CompletionStep<unknown>;
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
        return input.write({ ...unit, activity: unit.settingsOf(acknowledgeStep), identity });
      },
    });
  }

  return {
    course: courseOf,
    read,
    edit,
    takeCreditStep,

    /** Saves the activity's own columns named, in the caller's transaction. */
    saveIn: (tx: Executor, courseId: string, values: ActivityValues) =>
      createActivityRepository(tx).edit(courseId, values),

    /**
     * The activity's own part of its page for a viewer (404 for an unknown course, 403 for
     * a learner not enrolled): its fields, whether the course has expired, and the learner's
     * acknowledgement and validity window.
     */
    async page(viewer: Viewer, courseId: string) {
      const { course, enrollment, activity: row } = await read(viewer, courseId);
      const at = now();
      let standing = null;
      if (enrollment) {
        const ack = await repo.acknowledgementOf(enrollment.id);
        const end = enrollmentEndsAt(row, enrollment.createdAt);
        standing = {
          enrollmentId: enrollment.id,
          acknowledgedAt: ack?.acknowledgedAt.toISOString() ?? null,
          enrolledAt: enrollment.createdAt.toISOString(),
          enrollmentExpiresAt: end?.toISOString() ?? null,
          enrollmentExpired: Boolean(end && at >= end),
        };
      }
      return {
        course,
        fields: activityFields(row),
        courseExpired: isCourseExpired(row, at),
        standing,
        updatedAt: row?.updatedAt ?? null,
      };
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
