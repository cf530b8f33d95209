import { certificateFileName } from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database } from "../../db/client";
import type { Mailer } from "../../mail/mailer";
import { createQueueRunner } from "../../mail/queue-runner";
import { certificateMail, type MailIssuer } from "../../mail/templates";
import type { CertificateAssetsOf } from "./certificate-assets";
import { createCertificateMailsRepository } from "./certificate-mails.repository";
import type { CertificateMailRow } from "./certificate-mails.table";
import { createCertificatesRepository } from "./certificates.repository";
import type { CertificatesService } from "./certificates.service";
import type { PdfRenderer } from "./pdf-renderer";

/** A mail a sender took and did not finish (it stopped mid-way) is retried after this. */
const CLAIM_LEASE_MS = 10 * 60_000;
/** A mail the mail server kept refusing stops being retried after this many attempts. */
const MAX_ATTEMPTS = 8;
const BATCH = 20;

export interface CertificateMailsDeps {
  db: Database;
  mailer: Mailer;
  /** The organisation feature: who certificate mails come from. */
  issuer: { mailIssuer(): Promise<MailIssuer> };
  certificates: Pick<CertificatesService, "toCertificate">;
  pdfs: PdfRenderer;
  /** What a certificate's PDF draws beside its record (certificate-assets.ts). */
  assetsOf: CertificateAssetsOf;
  /** Announces queued mails at commit, on every instance; without it only sweeps send. */
  changes?: ChangeFeed;
  log: { warn(obj: object, msg: string): void };
  now?: () => Date;
}

/**
 * Delivers the email of each issued certificate, with its PDF and verification link. The
 * mail is queued in the issuing transaction (certificates.service.ts) and sent only after
 * that transaction committed: a trigger announces the queued row at commit and this sender
 * wakes up; a periodic sweep (`sendPending`) retries what failed or was left behind.
 */
export function createCertificateMailsService(deps: CertificateMailsDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const repo = createCertificateMailsRepository(db);
  const certificatesRepo = createCertificatesRepository(db);

  async function deliver(mail: CertificateMailRow) {
    const row = await certificatesRepo.findById(mail.certificateId);
    if (!row?.learnerEmail || row.revokedAt) {
      // Nothing to send: a revoked certificate is not announced.
      await repo.markSent(mail.certificateId, now(), "not sent: revoked or no address");
      return;
    }
    try {
      const certificate = deps.certificates.toCertificate(row);
      const pdf = await deps.pdfs.certificate(certificate, await deps.assetsOf(certificate));
      await deps.mailer.send(
        certificateMail({
          issuer: await deps.issuer.mailIssuer(),
          to: row.learnerEmail,
          name: row.learnerName,
          courseTitle: row.courseTitle,
          verifyUrl: certificate.verifyUrl,
          pdf: { filename: certificateFileName(row.courseTitle, "pdf"), content: pdf },
        }),
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      deps.log.warn({ err, certificateId: mail.certificateId }, "certificate mail not sent");
      await repo.markFailed(mail.certificateId, message);
      return;
    }
    await repo.markSent(mail.certificateId, now());
  }

  /** Sends every mail due now, batch by batch; the number sent or attempted. */
  async function sendPending(): Promise<number> {
    let handled = 0;
    for (;;) {
      const at = now();
      const batch = await repo.claim({
        now: at,
        staleBefore: new Date(at.getTime() - CLAIM_LEASE_MS),
        maxAttempts: MAX_ATTEMPTS,
        limit: BATCH,
      });
      for (const mail of batch) await deliver(mail);
      handled += batch.length;
      if (batch.length < BATCH) return handled;
    }
  }

  const runner = createQueueRunner({
    table: "certificate_mails",
    run: sendPending,
    changes: deps.changes,
    log: deps.log,
  });
  return { sendPending, start: runner.start, idle: runner.idle, stop: runner.stop };
}

export type CertificateMailsService = ReturnType<typeof createCertificateMailsService>;
