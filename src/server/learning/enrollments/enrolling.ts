import type { EnrollmentWithRelations } from "../../../contract";
import { announceAtCommit } from "../../db/change-feed";
import type { Executor } from "../../db/client";
import { databaseRefusal, FOREIGN_KEY_VIOLATION } from "../../db/refusals";
import type { Actor } from "../../platform";
import { createEnrollmentMailsRepository } from "./enrollment-mails.repository";
import {
  alreadyEnrolled,
  courseNotFound,
  courseNotPublished,
  enrollmentNotFound,
  notALearner,
  notLearners,
} from "./enrollments.errors";
import { createEnrollmentsRepository } from "./enrollments.repository";
import type { EnrollmentsServiceDeps } from "./enrollments.service";
import type { EnrollmentRow } from "./enrollments.table";
import type { createUnitOfWork } from "./unit-of-work";

/**
 * Which of the enrollment's foreign keys refused its row, when one did: the learner or the
 * course was deleted by another administrator between the checks and the insert, which
 * waited for that deletion to commit.
 */
function deletedMeanwhile(error: unknown): "learner" | "course" | undefined {
  const { code, constraint } = databaseRefusal(error);
  if (code !== FOREIGN_KEY_VIOLATION) return undefined;
  if (constraint === "enrollments_course_id_courses_id_fk") return "course";
  if (constraint === "enrollments_user_id_users_id_fk") return "learner";
  return undefined;
}

export interface EnrollingDeps extends Pick<EnrollmentsServiceDeps, "db" | "users" | "audit"> {
  work: Pick<ReturnType<typeof createUnitOfWork>, "contextOf" | "assertOpen">;
  now: () => Date;
  /** After a learner's enrollments changed (committed): drops them from this instance's caches. */
  changed(userId: string): void;
  /** After enrollments were added or removed (committed): every page after them moved. */
  moved(): void;
  /** The enrollment as answered, with its course and learner. */
  one(row: EnrollmentRow): Promise<EnrollmentWithRelations>;
}

/**
 * Learners put into courses and taken out: by an administrator one at a time or many at
 * once, or with their registration. Every enrollment and removal is recorded on the audit
 * trail in the transaction that makes it.
 */
export function createEnrolling(deps: EnrollingDeps) {
  const { db, work, now, changed, moved } = deps;

  /**
   * The single enrollment's rules on the course: it exists, is published and takes learners
   * (an expired activity takes no one).
   */
  async function assertEnrollable(courseId: string): Promise<void> {
    const context = await work.contextOf(courseId);
    if (!context.course.isPublished) throw courseNotPublished();
    const at = now();
    work.assertOpen(context, { createdAt: at }, at);
  }

  const recordEnrolled = (tx: Executor, row: EnrollmentRow, actor: Actor) =>
    deps.audit.append(tx, {
      type: "enrollment.created",
      actor,
      learnerId: row.userId,
      courseId: row.courseId,
      details: { enrollmentId: row.id },
    });

  /** One multi-row insert in `tx`, skipping pairs already enrolled; the audit record of each. */
  async function insertEnrollments(
    tx: Executor,
    pairs: { userId: string; courseId: string }[],
    actor: Actor,
  ): Promise<EnrollmentRow[]> {
    const rows = await createEnrollmentsRepository(tx).insertMany(pairs);
    for (const row of rows) await recordEnrolled(tx, row, actor);
    return rows;
  }

  /**
   * An administrator's enrollments are mailed to their learners (enrollment-mails.service.ts):
   * queued with them, announced at commit. A learner registered with their courses learns of
   * them from the invitation instead, and nothing else enrolls.
   */
  async function queueMails(tx: Executor, rows: EnrollmentRow[], actor: Actor) {
    if (actor?.role !== "admin" || !rows.length) return;
    await createEnrollmentMailsRepository(tx).queue(rows, now());
    await announceAtCommit(tx, "enrollment_mails", rows[0]!.courseId);
  }

  return {
    /** Enrolls a learner in a published course; a second enrollment is refused (409). */
    async enroll(input: { userId: string; courseId: string; actor?: Actor }) {
      const user = await deps.users.findUser(input.userId);
      if (!user || user.role !== "learner") throw notALearner();
      await assertEnrollable(input.courseId);
      const row = await db
        .transaction(async (tx) => {
          const inserted = await createEnrollmentsRepository(tx).insert({
            userId: input.userId,
            courseId: input.courseId,
          });
          if (!inserted) throw alreadyEnrolled();
          await recordEnrolled(tx, inserted, input.actor ?? null);
          await queueMails(tx, [inserted], input.actor ?? null);
          return inserted;
        })
        .catch((error) => {
          const gone = deletedMeanwhile(error);
          if (gone === "course") throw courseNotFound();
          if (gone === "learner") throw notALearner();
          throw error;
        });
      changed(row.userId);
      moved();
      return deps.one(row);
    },

    assertEnrollable,

    /**
     * Enrolls several learners in one course in one transaction, under the single
     * enrollment's rules. Every id must name a learner, or nothing changes; learners already
     * enrolled are skipped and reported. The learners' mails are queued, sent after the answer.
     */
    async enrollMany(input: { courseId: string; userIds: string[]; actor: Actor }) {
      const userIds = [...new Set(input.userIds)];
      const found = await deps.users.findUsers(userIds);
      const learners = new Set(found.filter((u) => u.role === "learner").map((u) => u.id));
      const strangers = userIds.filter((id) => !learners.has(id));
      if (strangers.length) throw notLearners(strangers.length);
      await assertEnrollable(input.courseId);
      const rows = await db
        .transaction(async (tx) => {
          const inserted = await insertEnrollments(
            tx,
            userIds.map((userId) => ({ userId, courseId: input.courseId })),
            input.actor,
          );
          await queueMails(tx, inserted, input.actor);
          return inserted;
        })
        .catch(async (error) => {
          const gone = deletedMeanwhile(error);
          if (gone === "course") throw courseNotFound();
          if (gone !== "learner") throw error;
          // Nobody was enrolled: the refusal counts the learners as they are now.
          const still = new Set((await deps.users.findUsers(userIds)).map((u) => u.id));
          throw notLearners(Math.max(1, userIds.filter((id) => !still.has(id)).length));
        });
      for (const row of rows) changed(row.userId);
      moved();
      const enrolled = new Set(rows.map((row) => row.userId));
      return {
        enrolled: userIds.filter((id) => enrolled.has(id)),
        alreadyEnrolled: userIds.filter((id) => !enrolled.has(id)),
      };
    },

    /**
     * Enrolls learners registered in the caller's transaction `tx`, in courses the caller
     * checked with `assertEnrollable`: one insert, and each enrollment's credit record in the
     * same transaction. Nothing is cached yet for learners who did not exist before it.
     */
    enrollNewLearners: (
      tx: Executor,
      pairs: { userId: string; courseId: string }[],
      actor: Actor,
    ) => insertEnrollments(tx, pairs, actor),

    async remove(id: string, actor: Actor = null): Promise<void> {
      const removed = await db.transaction(async (tx) => {
        const row = await createEnrollmentsRepository(tx).delete(id);
        if (!row) throw enrollmentNotFound();
        await deps.audit.append(tx, {
          type: "enrollment.removed",
          actor,
          learnerId: row.userId,
          courseId: row.courseId,
          details: { enrollmentId: row.id, progress: row.progress, wasCompleted: row.isCompleted },
        });
        return row;
      });
      changed(removed.userId);
      moved();
    },
  };
}
