import { and, asc, inArray, isNull, lt, lte, max, min, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type EnrollmentMailRow, enrollmentMails } from "./enrollment-mails.table";

/** The queue of enrollment emails; every function runs on the executor it is given. */
export function createEnrollmentMailsRepository(db: Executor) {
  const unsent = isNull(enrollmentMails.sentAt);

  return {
    /** Queues one mail per enrollment, dated `at`, in the enrolling transaction. */
    async queue(rows: { id: string; userId: string; courseId: string }[], at: Date) {
      if (!rows.length) return;
      await db
        .insert(enrollmentMails)
        .values(
          rows.map((r) => ({
            enrollmentId: r.id,
            userId: r.userId,
            courseId: r.courseId,
            createdAt: at,
          })),
        )
        .onConflictDoNothing();
    },

    /**
     * Takes the unsent mails of up to `learners` learners whose latest enrollment was queued
     * by `gatheredBefore` (their courses enrolled together go in one mail), among mails no other
     * sender holds (never taken, or taken before `staleBefore`), marking them taken.
     */
    async claim(input: {
      now: Date;
      gatheredBefore: Date;
      staleBefore: Date;
      maxAttempts: number;
      learners: number;
    }): Promise<EnrollmentMailRow[]> {
      const free = and(
        unsent,
        lt(enrollmentMails.attempts, input.maxAttempts),
        or(isNull(enrollmentMails.claimedAt), lt(enrollmentMails.claimedAt, input.staleBefore)),
      );
      const ready = db
        .select({ userId: enrollmentMails.userId })
        .from(enrollmentMails)
        .where(unsent)
        .groupBy(enrollmentMails.userId)
        // Learners with a mail to take now: mails out of tries, or waiting for their retry,
        // never fill the round and keep everyone else's back.
        .having(
          and(lte(max(enrollmentMails.createdAt), input.gatheredBefore), sql`bool_or(${free})`),
        )
        .orderBy(asc(min(enrollmentMails.createdAt)))
        .limit(input.learners);
      const due = db
        .select({ id: enrollmentMails.enrollmentId })
        .from(enrollmentMails)
        .where(and(free, inArray(enrollmentMails.userId, ready)))
        .for("update", { skipLocked: true });
      return db
        .update(enrollmentMails)
        .set({ claimedAt: input.now, attempts: sql`${enrollmentMails.attempts} + 1` })
        .where(and(inArray(enrollmentMails.enrollmentId, due), free))
        .returning();
    },

    /** When the next learner's mails are gathered: their latest enrollment's queueing time. */
    async nextGathered(): Promise<Date | null> {
      const latest = db
        .select({ at: max(enrollmentMails.createdAt).as("at") })
        .from(enrollmentMails)
        .where(and(unsent, isNull(enrollmentMails.claimedAt)))
        .groupBy(enrollmentMails.userId)
        .as("latest");
      const [row] = await db.select({ at: min(latest.at) }).from(latest);
      return row?.at ? new Date(row.at) : null;
    },

    async markSent(enrollmentIds: string[], at: Date, note: string | null = null) {
      await db
        .update(enrollmentMails)
        .set({ sentAt: at, lastError: note })
        .where(inArray(enrollmentMails.enrollmentId, enrollmentIds));
    },

    async markFailed(enrollmentIds: string[], error: string) {
      await db
        .update(enrollmentMails)
        .set({ lastError: error.slice(0, 1000) })
        .where(inArray(enrollmentMails.enrollmentId, enrollmentIds));
    },
  };
}
