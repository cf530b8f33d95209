import type { Course } from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database } from "../../db/client";
import type { Mailer } from "../../mail/mailer";
import { createQueueRunner } from "../../mail/queue-runner";
import { enrollmentMail, type MailIssuer } from "../../mail/templates";
import type { UserRow } from "../../people";
import { createEnrollmentMailsRepository } from "./enrollment-mails.repository";
import type { EnrollmentMailRow } from "./enrollment-mails.table";

/**
 * How long a learner's mail waits after their latest enrollment: the Learners page enrolls
 * one course per request, so the courses an administrator picks together arrive seconds apart
 * and go out in one mail.
 */
export const ENROLLMENT_MAIL_GATHER_MS = 60_000;
/** A mail a sender took and did not finish (it stopped mid-way) is retried after this. */
const CLAIM_LEASE_MS = 10 * 60_000;
/** A mail the mail server kept refusing stops being retried after this many attempts. */
const MAX_ATTEMPTS = 8;
/** Learners whose mails one claim takes: a bulk enrollment of 500 goes out in rounds. */
const BATCH = 20;

export interface EnrollmentMailsDeps {
  db: Database;
  mailer: Mailer;
  /** The organisation feature: who mails come from. */
  issuer: { mailIssuer(): Promise<MailIssuer> };
  /** The courses feature: the titles the mail names. */
  courses: { findMany(ids: string[]): Promise<Map<string, Course>> };
  /** The auth feature: who the mail goes to. */
  users: { findUsers(ids: string[]): Promise<UserRow[]> };
  /** Links in emails are built from PUBLIC_URL, never from a request's Host header. */
  publicUrl: string;
  /** Announces queued mails at commit, on every instance; without it only sweeps send. */
  changes?: ChangeFeed;
  log: { warn(obj: object, msg: string): void };
  /** The portal's clock, which dated the queued rows. */
  now?: () => Date;
}

/**
 * Delivers the email of the enrollments an administrator made: queued in the enrolling
 * transaction (enrolling.ts), sent after commit, once the learner's enrollments
 * made together are all in, as one mail per learner naming every course. A failed delivery
 * is retried by the periodic sweep; what a stopped process left is sent at the next start.
 */
export function createEnrollmentMailsService(deps: EnrollmentMailsDeps) {
  const now = deps.now ?? (() => new Date());
  const repo = createEnrollmentMailsRepository(deps.db);

  async function deliver(user: UserRow | undefined, claimed: EnrollmentMailRow[]) {
    // Named in the order the learner was enrolled: a claim returns its rows in any order.
    const mails = [...claimed].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const ids = mails.map((m) => m.enrollmentId);
    const courses = await deps.courses.findMany(mails.map((m) => m.courseId));
    const titled = mails.flatMap((m) => courses.get(m.courseId) ?? []);
    // A restricted learner cannot sign in; a deleted course or learner leaves nothing to say.
    if (!user || user.status !== "active" || !titled.length) {
      await repo.markSent(ids, now(), "not sent: learner or courses gone, or restricted");
      return;
    }
    const only = titled.length === 1 ? titled[0] : undefined;
    const link = only
      ? `${deps.publicUrl}/course/${encodeURIComponent(only.id)}`
      : `${deps.publicUrl}/learner`;
    try {
      await deps.mailer.send(
        enrollmentMail({
          issuer: await deps.issuer.mailIssuer(),
          to: user.email,
          name: user.name,
          courseTitles: titled.map((c) => c.title),
          link,
          awaitingPassword: !user.passwordSetup,
        }),
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      deps.log.warn({ err, userId: user.id }, "enrollment mail not sent");
      await repo.markFailed(ids, message);
      return;
    }
    await repo.markSent(ids, now());
  }

  /**
   * Sends every learner's mail due now, a batch of learners at a time, until `stopping` says
   * the portal is shutting down; the learners handled.
   */
  async function sendPending(stopping = () => false): Promise<number> {
    let handled = 0;
    for (;;) {
      const at = now();
      const claimed = await repo.claim({
        now: at,
        gatheredBefore: new Date(at.getTime() - ENROLLMENT_MAIL_GATHER_MS),
        staleBefore: new Date(at.getTime() - CLAIM_LEASE_MS),
        maxAttempts: MAX_ATTEMPTS,
        learners: BATCH,
      });
      const byLearner = new Map<string, EnrollmentMailRow[]>();
      for (const mail of claimed)
        byLearner.set(mail.userId, [...(byLearner.get(mail.userId) ?? []), mail]);
      const users = new Map(
        (await deps.users.findUsers([...byLearner.keys()])).map((u) => [u.id, u]),
      );
      for (const [userId, mails] of byLearner) await deliver(users.get(userId), mails);
      handled += byLearner.size;
      if (byLearner.size < BATCH || stopping()) return handled;
    }
  }

  // Mails still gathering are sent by a timer set for the moment the next learner's are due.
  let timer: NodeJS.Timeout | undefined;
  async function sendAndWait(stopping: () => boolean) {
    await sendPending(stopping);
    const next = await repo.nextGathered();
    clearTimeout(timer);
    timer = undefined;
    if (!next || stopped) return;
    const wait = next.getTime() + ENROLLMENT_MAIL_GATHER_MS - now().getTime();
    timer = setTimeout(() => runner.kick(), Math.max(wait, 0));
    timer.unref();
  }

  let stopped = false;
  const runner = createQueueRunner({
    table: "enrollment_mails",
    run: sendAndWait,
    changes: deps.changes,
    log: deps.log,
  });
  return {
    sendPending,
    start() {
      stopped = false;
      runner.start();
    },
    idle: runner.idle,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await runner.stop();
    },
  };
}

export type EnrollmentMailsService = ReturnType<typeof createEnrollmentMailsService>;
