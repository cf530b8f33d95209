import type { CertificateMailsService } from "../../credit";
import type { EnrollmentMailsService } from "../../learning";
import type { RemindersService, SweepResult } from "./reminders.service";

/** The mail that goes out after commit, as the app exposes it (tests trigger a sweep). */
interface MailJobs {
  /**
   * One sweep now: certificate mails left unsent, the enrollment mails due (the learners
   * mailed), then the reminders due.
   */
  sweep(): Promise<{ certificateMails: number; enrollmentMails: number; reminders: SweepResult }>;
  /** Resolves once the certificate mails this process was woken for are handled. */
  certificateMailsIdle(): Promise<void>;
  /** Resolves once the enrollment mails this process was woken for are handled. */
  enrollmentMailsIdle(): Promise<void>;
  start(): void;
  /** Stops the timer; a sweep under way sends the mail in hand and leaves the rest queued. */
  stop(): Promise<void>;
}

declare module "fastify" {
  interface FastifyInstance {
    mailJobs: MailJobs;
  }
}

/**
 * Sweeps every `intervalMs` on an unref'd timer, so a pending sweep never keeps the process
 * alive; sweeps never overlap in one process, and across instances a sweep is safe by
 * itself (the advisory lock and the unique sends of reminders.service.ts).
 */
export function createMailJobs(options: {
  certificateMails: CertificateMailsService;
  enrollmentMails: EnrollmentMailsService;
  reminders: RemindersService;
  intervalMs: number;
  log: { warn(obj: object, msg: string): void };
}): MailJobs {
  const { certificateMails, enrollmentMails, reminders } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopping = false;

  const sweep = async () => ({
    certificateMails: await certificateMails.sendPending(() => stopping),
    enrollmentMails: await enrollmentMails.sendPending(() => stopping),
    reminders: await reminders.runOnce(() => stopping),
  });

  const tick = () => {
    if (running) return;
    running = sweep()
      .then(() => undefined)
      .catch((err) => options.log.warn({ err }, "mail sweep failed"))
      .finally(() => {
        running = undefined;
      });
  };

  return {
    sweep,
    certificateMailsIdle: () => certificateMails.idle(),
    enrollmentMailsIdle: () => enrollmentMails.idle(),
    start() {
      stopping = false;
      // Certificate and enrollment mails wake on their commit; what an earlier process left
      // goes out now.
      certificateMails.start();
      enrollmentMails.start();
      if (timer || options.intervalMs <= 0) return;
      timer = setInterval(tick, options.intervalMs);
      timer.unref();
    },
    async stop() {
      stopping = true;
      clearInterval(timer);
      timer = undefined;
      await running;
      await certificateMails.stop();
      await enrollmentMails.stop();
    },
  };
}
