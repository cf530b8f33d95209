import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { DEFAULT_REMINDER_SETTINGS, type ReminderSettings } from "../../../contract";
import { courseSummaries } from "../../catalogue";
import type { Executor } from "../../db/client";
import { enrollmentRecords, lastBeats } from "../../learning";
import { userAccounts } from "../../people";
import {
  type ReminderKind,
  type ReminderSendRow,
  reminderSends,
  reminderSettings,
  reminderSubscriptions,
} from "./reminders.table";

/** Any fixed number: the key every instance's sweep locks, so one sweeps at a time. */
const SWEEP_LOCK_KEY = 7_302_418_861;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Reminder settings, sends and opt-outs, and the read of which enrollments are due: like
 * the reports, one query across users, courses and enrollments (as their owners expose them
 * for reports), so a sweep never loads every learner into Node.
 */
export function createRemindersRepository(db: Executor) {
  /** Unfinished enrollments of active learners who did not opt out. */
  const reachable = and(
    eq(enrollmentRecords.isCompleted, false),
    eq(userAccounts.role, "learner"),
    eq(userAccounts.status, "active"),
    isNull(reminderSubscriptions.optedOutAt),
  );

  return {
    async settings(): Promise<ReminderSettings> {
      const [row] = await db.select().from(reminderSettings).where(eq(reminderSettings.id, 1));
      return row
        ? { inactivityDays: row.inactivityDays, expiryReminders: row.expiryReminders }
        : DEFAULT_REMINDER_SETTINGS;
    },

    async saveSettings(values: ReminderSettings): Promise<ReminderSettings> {
      const [row] = await db
        .insert(reminderSettings)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({
          target: reminderSettings.id,
          set: { ...values, updatedAt: sql`now()` },
        })
        .returning();
      return { inactivityDays: row!.inactivityDays, expiryReminders: row!.expiryReminders };
    },

    /**
     * Only one sweep at a time across instances (PostgreSQL); held until the caller's
     * transaction ends. On embedded PGlite there is one backend and it always succeeds: the
     * unique sends keep reminders single there.
     */
    async trySweepLock(): Promise<boolean> {
      const result = await db.execute(
        sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}::bigint) as locked`,
      );
      return rowsOf<{ locked: boolean }>(result)[0]?.locked === true;
    },

    /**
     * Records an inactivity reminder for each reachable enrollment whose last activity (the
     * last progress, or the last heartbeat of its video) is at or before `cutoff` and that
     * has none for that activity yet. Returns the enrollments recorded now.
     */
    async recordInactive(input: { cutoff: Date; now: Date; limit: number }) {
      const e = enrollmentRecords;
      const u = userAccounts;
      const wc = lastBeats;
      const result = await db.execute(sql`
        with last as (
          -- Milliseconds, as JavaScript dates hold them: the period reads back exactly.
          select ${e.id} as id, ${e.userId} as user_id,
            date_trunc('milliseconds', greatest(${e.updatedAt}, ${wc.lastBeatAt})) as last_at
          from ${e}
          join ${u} on ${u.id} = ${e.userId}
          left join ${wc} on ${wc.userId} = ${e.userId} and ${wc.courseId} = ${e.courseId}
          left join reminder_subscriptions rs on rs.user_id = ${e.userId}
          where not ${e.isCompleted} and ${u.role} = 'learner' and ${u.status} = 'active'
            and rs.opted_out_at is null
        )
        insert into reminder_sends (enrollment_id, kind, period_at, user_id, claimed_at)
        select last.id, 'inactive', last.last_at, last.user_id, ${input.now.toISOString()}::timestamptz
        from last
        where last.last_at <= ${input.cutoff.toISOString()}::timestamptz
          and not exists (
            select 1 from reminder_sends s
            where s.enrollment_id = last.id and s.kind = 'inactive' and s.period_at = last.last_at
          )
        limit ${input.limit}
        on conflict do nothing
        returning enrollment_id, user_id,
          to_char(period_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as period_at`);
      return rowsOf<{ enrollment_id: string; user_id: string; period_at: string }>(result).map(
        (r) => ({
          enrollmentId: r.enrollment_id,
          userId: r.user_id,
          periodAt: new Date(r.period_at),
        }),
      );
    },

    /** Reachable enrollments in the given courses, with when they were made. */
    async unfinishedIn(courseIds: string[]) {
      if (courseIds.length === 0) return [];
      return db
        .select({
          id: enrollmentRecords.id,
          userId: enrollmentRecords.userId,
          courseId: enrollmentRecords.courseId,
          createdAt: enrollmentRecords.createdAt,
        })
        .from(enrollmentRecords)
        .innerJoin(userAccounts, eq(userAccounts.id, enrollmentRecords.userId))
        .leftJoin(reminderSubscriptions, eq(reminderSubscriptions.userId, enrollmentRecords.userId))
        .where(and(inArray(enrollmentRecords.courseId, courseIds), reachable));
    },

    /** Records a reminder unless one was recorded for the same period: true when recorded now. */
    async record(values: {
      enrollmentId: string;
      kind: ReminderKind;
      periodAt: Date;
      userId: string;
      claimedAt: Date;
    }): Promise<boolean> {
      const rows = await db
        .insert(reminderSends)
        .values(values)
        .onConflictDoNothing()
        .returning({ id: reminderSends.enrollmentId });
      return rows.length > 0;
    },

    /**
     * Takes the reminders whose sending failed (the mail server refused them) for another
     * try. One whose sender stopped mid-way is never retried: it may have gone out.
     */
    async claimFailed(input: {
      now: Date;
      staleBefore: Date;
      maxAttempts: number;
    }): Promise<ReminderSendRow[]> {
      return db
        .update(reminderSends)
        .set({ claimedAt: input.now, attempts: sql`${reminderSends.attempts} + 1` })
        .where(
          and(
            isNull(reminderSends.sentAt),
            isNotNull(reminderSends.lastError),
            lt(reminderSends.attempts, input.maxAttempts),
            lt(reminderSends.claimedAt, input.staleBefore),
          ),
        )
        .returning();
    },

    async markSent(key: Pick<ReminderSendRow, "enrollmentId" | "kind" | "periodAt">, at: Date) {
      await db.update(reminderSends).set({ sentAt: at, lastError: null }).where(keyOf(key));
    },

    /**
     * Gives back reminders recorded but never handed to the mail server (their sweep stopped
     * with the portal): the next sweep of any instance records and sends them again. One the
     * mail server refused before keeps its row and its count, and is tried again later.
     */
    async release(keys: Pick<ReminderSendRow, "enrollmentId" | "kind" | "periodAt">[]) {
      if (keys.length === 0) return;
      await db
        .delete(reminderSends)
        .where(
          and(
            isNull(reminderSends.sentAt),
            isNull(reminderSends.lastError),
            or(...keys.map(keyOf)),
          ),
        );
    },

    async markFailed(
      key: Pick<ReminderSendRow, "enrollmentId" | "kind" | "periodAt">,
      error: string,
    ) {
      await db
        .update(reminderSends)
        .set({ lastError: error.slice(0, 1000) })
        .where(keyOf(key));
    },

    /** Gives each learner an unsubscribe token, once. */
    async ensureTokens(userIds: string[]) {
      if (userIds.length === 0) return;
      await db
        .insert(reminderSubscriptions)
        .values(userIds.map((userId) => ({ userId, token: randomBytes(32).toString("base64url") })))
        .onConflictDoNothing();
    },

    /** The administrators who can act on the reporting digest: active ones, by name. */
    async activeAdmins() {
      return db
        .select({ id: userAccounts.id, email: userAccounts.email, name: userAccounts.name })
        .from(userAccounts)
        .where(and(eq(userAccounts.role, "admin"), eq(userAccounts.status, "active")))
        .orderBy(userAccounts.name, userAccounts.email);
    },

    /**
     * What each reminder's mail says: learner, course and unsubscribe token; only for those
     * still reachable when the mail goes out (a retry may come after the learner was
     * restricted or finished the course, and then nothing is sent).
     */
    async mailFacts(enrollmentIds: string[]) {
      if (enrollmentIds.length === 0) return [];
      return db
        .select({
          enrollmentId: enrollmentRecords.id,
          userId: enrollmentRecords.userId,
          courseId: enrollmentRecords.courseId,
          email: userAccounts.email,
          name: userAccounts.name,
          courseTitle: courseSummaries.title,
          token: reminderSubscriptions.token,
          optedOutAt: reminderSubscriptions.optedOutAt,
        })
        .from(enrollmentRecords)
        .innerJoin(userAccounts, eq(userAccounts.id, enrollmentRecords.userId))
        .innerJoin(courseSummaries, eq(courseSummaries.id, enrollmentRecords.courseId))
        .leftJoin(reminderSubscriptions, eq(reminderSubscriptions.userId, enrollmentRecords.userId))
        .where(and(inArray(enrollmentRecords.id, enrollmentIds), reachable));
    },

    /** Opts the token's learner out (the first time counts); false when no learner has it. */
    async optOut(token: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(reminderSubscriptions)
        .set({
          optedOutAt: sql`coalesce(${reminderSubscriptions.optedOutAt}, ${at.toISOString()}::timestamptz)`,
        })
        .where(eq(reminderSubscriptions.token, token))
        .returning({ userId: reminderSubscriptions.userId });
      return rows.length > 0;
    },
  };
}

const keyOf = (key: Pick<ReminderSendRow, "enrollmentId" | "kind" | "periodAt">) =>
  and(
    eq(reminderSends.enrollmentId, key.enrollmentId),
    eq(reminderSends.kind, key.kind),
    eq(reminderSends.periodAt, key.periodAt),
  );
