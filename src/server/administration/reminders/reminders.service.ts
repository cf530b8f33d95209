import { EXPIRY_REMINDER_DAYS, type ReminderSettings } from "../../../contract";
import type { Database } from "../../db/client";
import type { Mailer, MailMessage } from "../../mail/mailer";
import {
  expiryReminderMail,
  inactivityReminderMail,
  type MailIssuer,
  reportingDigestMail,
} from "../../mail/templates";
import { badUnsubscribeLink } from "./reminders.errors";
import { createRemindersRepository } from "./reminders.repository";
import type { ReminderKind } from "./reminders.table";

const DAY_MS = 86_400_000;
/** At most this many inactivity reminders per sweep; the next sweep takes the rest. */
const SWEEP_LIMIT = 500;
/** A reminder the mail server refused is tried again this long after, up to MAX_ATTEMPTS. */
const RETRY_AFTER_MS = 30 * 60_000;
const MAX_ATTEMPTS = 3;

export interface RemindersServiceDeps {
  db: Database;
  mailer: Mailer;
  /** The organisation feature: who reminders come from. */
  issuer: { mailIssuer(): Promise<MailIssuer> };
  /** PUBLIC_URL: links in mails never come from a request's Host header. */
  publicUrl: string;
  /** The activity feature: when each enrollment of a course with an expiry stops taking steps. */
  activity: { deadlines(): Promise<Map<string, (enrolledAt: Date) => Date | null>> };
  log: { warn(obj: object, msg: string): void };
  /** The clock of inactivity and expiry; tests pass one they can move. */
  now?: () => Date;
  /**
   * The reporting feature: the claims waiting past each regulator's deadline, and the week's
   * digest taken once across instances. Without it no digest goes out.
   */
  reportingDigest?: {
    overdue(): Promise<
      {
        name: string;
        deadlineDays: number;
        claims: {
          learnerName: string;
          courseTitle: string;
          completedOn: string;
          waitingDays: number | null;
        }[];
      }[]
    >;
    digestDue(week: string, retry: DigestRetry): Promise<boolean>;
    claimDigest(week: string, retry: DigestRetry): Promise<boolean>;
    digestRecipients(week: string): Promise<Set<string>>;
    markDigestSentTo(week: string, userId: string): Promise<void>;
    markDigestSent(week: string): Promise<void>;
  };
}

/** When a week's digest that did not reach every administrator is tried again. */
interface DigestRetry {
  staleBefore: Date;
  maxAttempts: number;
}

/** A reminder recorded for sending: the period is what makes it unique. */
interface Due {
  enrollmentId: string;
  kind: ReminderKind;
  periodAt: Date;
}

/** What one sweep did. */
export interface SweepResult {
  /** False when another instance was sweeping: this one left it to that one. */
  swept: boolean;
  sent: number;
  failed: number;
  /** Administrators sent this week's reporting digest by this sweep. */
  digests: number;
}

/** The Monday (UTC) of the week of `at`, as YYYY-MM-DD: a digest's week. */
const weekOf = (at: Date) =>
  new Date(at.getTime() - ((at.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);

/**
 * Reminder emails: to learners inactive for the admin's number of days on an unfinished
 * course (once per stretch of inactivity), and EXPIRY_REMINDER_DAYS before their course or
 * enrollment closes (once per closing date). Each is recorded before it is sent, under a
 * unique key, so however many instances sweep at once none goes out twice.
 */
export function createRemindersService(deps: RemindersServiceDeps) {
  const { db } = deps;
  const repo = createRemindersRepository(db);
  const clock = deps.now ?? (() => new Date());
  const base = deps.publicUrl.replace(/\/+$/, "");

  /** Records what is due now, under the sweep lock; empty when another instance holds it. */
  async function recordDue(settings: ReminderSettings, now: Date) {
    // Read before the transaction: on PGlite a read outside it would wait for it.
    const deadlines = settings.expiryReminders ? await deps.activity.deadlines() : new Map();
    return db.transaction(async (tx) => {
      const txRepo = createRemindersRepository(tx);
      if (!(await txRepo.trySweepLock())) return undefined;
      const due: Due[] = [];
      const learners = new Set<string>();
      if (settings.inactivityDays) {
        const cutoff = new Date(now.getTime() - settings.inactivityDays * DAY_MS);
        for (const row of await txRepo.recordInactive({ cutoff, now, limit: SWEEP_LIMIT })) {
          due.push({ enrollmentId: row.enrollmentId, kind: "inactive", periodAt: row.periodAt });
          learners.add(row.userId);
        }
      }
      const soon = now.getTime() + EXPIRY_REMINDER_DAYS * DAY_MS;
      for (const enrollment of await txRepo.unfinishedIn([...deadlines.keys()])) {
        const endsAt = deadlines.get(enrollment.courseId)?.(enrollment.createdAt);
        if (!endsAt || endsAt <= now || endsAt.getTime() > soon) continue;
        const recorded = await txRepo.record({
          enrollmentId: enrollment.id,
          kind: "expiry",
          periodAt: endsAt,
          userId: enrollment.userId,
          claimedAt: now,
        });
        if (!recorded) continue;
        due.push({ enrollmentId: enrollment.id, kind: "expiry", periodAt: endsAt });
        learners.add(enrollment.userId);
      }
      await txRepo.ensureTokens([...learners]);
      return due;
    });
  }

  function mailOf(
    due: Due,
    facts: Awaited<ReturnType<typeof repo.mailFacts>>[number],
    settings: ReminderSettings,
    issuer: MailIssuer,
  ): MailMessage {
    const token = encodeURIComponent(facts.token ?? "");
    const common = {
      issuer,
      to: facts.email,
      name: facts.name,
      courseTitle: facts.courseTitle,
      courseLink: `${base}/course/${encodeURIComponent(facts.courseId)}`,
      unsubscribe: {
        page: `${base}/unsubscribe?token=${token}`,
        oneClick: `${base}/api/reminders/unsubscribe/one-click?token=${token}`,
      },
    };
    return due.kind === "inactive"
      ? inactivityReminderMail({ ...common, inactiveDays: settings.inactivityDays ?? 1 })
      : expiryReminderMail({ ...common, endsOn: new Date(due.periodAt.getTime() - 1) });
  }

  /**
   * Sends recorded reminders; a learner who opted out meanwhile gets none. Once the portal
   * is stopping, the reminders not yet sent are released for the next sweep, so a shutdown
   * waits for one mail, not for a sweep's hundreds, and loses none.
   */
  async function send(due: Due[], settings: ReminderSettings, now: Date, stopping: () => boolean) {
    const result = { sent: 0, failed: 0 };
    const issuer = await deps.issuer.mailIssuer();
    const facts = new Map(
      (await repo.mailFacts([...new Set(due.map((d) => d.enrollmentId))])).map((f) => [
        f.enrollmentId,
        f,
      ]),
    );
    for (const [i, item] of due.entries()) {
      if (stopping()) {
        await repo.release(due.slice(i));
        break;
      }
      const fact = facts.get(item.enrollmentId);
      if (!fact?.token || fact.optedOutAt) continue;
      const key = { enrollmentId: item.enrollmentId, kind: item.kind, periodAt: item.periodAt };
      try {
        await deps.mailer.send(mailOf(item, fact, settings, issuer));
      } catch (err) {
        result.failed++;
        deps.log.warn({ err, enrollmentId: item.enrollmentId }, "reminder not sent");
        await repo.markFailed(key, err instanceof Error ? err.message : String(err));
        continue;
      }
      result.sent++;
      await repo.markSent(key, now);
    }
    return result;
  }

  /**
   * Once a week, when claims wait past a regulator's deadline: a digest of them to every
   * active administrator, with a link to the Reporting page. Administrators the mail server
   * refused are tried again like reminders, the others are not sent it twice.
   */
  async function sendDigest(now: Date): Promise<number> {
    const source = deps.reportingDigest;
    if (!source) return 0;
    const week = weekOf(now);
    const retry = {
      staleBefore: new Date(now.getTime() - RETRY_AFTER_MS),
      maxAttempts: MAX_ATTEMPTS,
    };
    if (!(await source.digestDue(week, retry))) return 0;
    const overdue = (await source.overdue()).filter((r) => r.claims.length);
    if (!overdue.length || !(await source.claimDigest(week, retry))) return 0;
    const issuer = await deps.issuer.mailIssuer();
    const reached = await source.digestRecipients(week);
    let sent = 0;
    let failed = 0;
    for (const admin of await repo.activeAdmins()) {
      if (reached.has(admin.id)) continue;
      try {
        await deps.mailer.send(
          reportingDigestMail({
            issuer,
            to: admin.email,
            name: admin.name,
            link: `${base}/admin/reporting`,
            regulators: overdue.map((r) => ({
              name: r.name,
              deadlineDays: r.deadlineDays,
              claims: r.claims.map((c) => ({ ...c, waitingDays: c.waitingDays ?? 0 })),
            })),
          }),
        );
        await source.markDigestSentTo(week, admin.id);
        sent++;
      } catch (err) {
        failed++;
        deps.log.warn({ err }, "reporting digest not sent");
      }
    }
    if (!failed) await source.markDigestSent(week);
    return sent;
  }

  return {
    settings: () => repo.settings(),

    saveSettings: (body: ReminderSettings) => repo.saveSettings(body),

    /** Stops reminders for the learner whose link this is; refuses a token that names no one. */
    async unsubscribe(token: string): Promise<void> {
      if (!(await repo.optOut(token, clock()))) throw badUnsubscribeLink();
    },

    /**
     * One sweep: records every reminder due now and sends them, and tries again those the
     * mail server refused before. Safe to run on every instance at once. `stopping` tells it
     * the portal is shutting down: it sends nothing more, and no digest.
     */
    async runOnce(stopping: () => boolean = () => false): Promise<SweepResult> {
      const now = clock();
      const settings = await repo.settings();
      const recorded = await recordDue(settings, now);
      const retried = await repo.claimFailed({
        now,
        staleBefore: new Date(now.getTime() - RETRY_AFTER_MS),
        maxAttempts: MAX_ATTEMPTS,
      });
      const due: Due[] = [
        ...(recorded ?? []),
        ...retried.map((r) => ({
          enrollmentId: r.enrollmentId,
          kind: r.kind,
          periodAt: r.periodAt,
        })),
      ];
      const result = await send(due, settings, now, stopping);
      const digests = stopping() ? 0 : await sendDigest(now);
      return { swept: recorded !== undefined, ...result, digests };
    },
  };
}

export type RemindersService = ReturnType<typeof createRemindersService>;
