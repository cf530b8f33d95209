import { certificateFileName } from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database } from "../../db/client";
import type { Mailer, MailMessage } from "../../mail/mailer";
import { createQueueRunner } from "../../mail/queue-runner";
import { certificateMail, certificateRevokedMail, type MailIssuer } from "../../mail/templates";
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
 * Delivers the emails of each certificate: at issue, with its PDF and verification link; at
 * revocation, with the date and reason. Each mail is queued in the transaction that issues or
 * revokes the certificate (certificates.service.ts) and sent only after it committed: a trigger announces the queued row at commit and this sender
 * wakes up; a periodic sweep (`sendPending`) retries what failed or was left behind.
 */
export function createCertificateMailsService(deps: CertificateMailsDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const repo = createCertificateMailsRepository(db);
  const certificatesRepo = createCertificatesRepository(db);

  /** The message a queued mail stands for; undefined when there is nothing to send. */
  async function messageOf(mail: CertificateMailRow): Promise<MailMessage | undefined> {
    const row = await certificatesRepo.findById(mail.certificateId);
    if (!row?.learnerEmail) return undefined;
    const certificate = deps.certificates.toCertificate(row);
    if (mail.kind === "revoked") {
      // A deleted learner has no record left to be told about.
      if (!row.revokedAt || !row.userId) return undefined;
      return certificateRevokedMail({
        issuer: await deps.issuer.mailIssuer(),
        to: row.learnerEmail,
        name: row.learnerName,
        courseTitle: row.courseTitle,
        reason: row.revokedReason ?? "",
        revokedAt: row.revokedAt,
        verifyUrl: certificate.verifyUrl,
      });
    }
    // A certificate revoked before its mail went out is not announced.
    if (row.revokedAt) return undefined;
    const pdf = await deps.pdfs.certificate(certificate, await deps.assetsOf(certificate), {
      inBackground: true,
    });
    return certificateMail({
      issuer: await deps.issuer.mailIssuer(),
      to: row.learnerEmail,
      name: row.learnerName,
      courseTitle: row.courseTitle,
      verifyUrl: certificate.verifyUrl,
      pdf: { filename: certificateFileName(row.courseTitle, "pdf"), content: pdf },
    });
  }

  async function deliver(mail: CertificateMailRow) {
    try {
      const message = await messageOf(mail);
      if (!message) {
        await repo.markSent(mail, now(), "not sent: nothing to announce or no address");
        return;
      }
      await deps.mailer.send(message);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      deps.log.warn(
        { err, certificateId: mail.certificateId, kind: mail.kind },
        "certificate mail not sent",
      );
      await repo.markFailed(mail, message);
      return;
    }
    await repo.markSent(mail, now());
  }

  /**
   * Sends every mail due now, batch by batch, until `stopping` says the portal is shutting
   * down; the number sent or attempted.
   */
  async function sendPending(stopping = () => false): Promise<number> {
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
      if (batch.length < BATCH || stopping()) return handled;
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
