import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type CertificateMailRow, certificateMails } from "./certificate-mails.table";

/** One mail of the queue: a certificate's issue or its revocation. */
type MailKey = Pick<CertificateMailRow, "certificateId" | "kind">;
const byKey = (mail: MailKey) =>
  and(eq(certificateMails.certificateId, mail.certificateId), eq(certificateMails.kind, mail.kind));

/** The queue of certificate emails; every function runs on the executor it is given. */
export function createCertificateMailsRepository(db: Executor) {
  return {
    /**
     * Takes up to `limit` unsent mails no other sender holds (never taken, or taken before
     * `staleBefore`), marking them taken: two senders at once never take the same mail.
     */
    async claim(input: {
      now: Date;
      staleBefore: Date;
      maxAttempts: number;
      limit: number;
    }): Promise<CertificateMailRow[]> {
      const free = and(
        isNull(certificateMails.sentAt),
        lt(certificateMails.attempts, input.maxAttempts),
        or(isNull(certificateMails.claimedAt), lt(certificateMails.claimedAt, input.staleBefore)),
      );
      const due = db
        .select({ certificateId: certificateMails.certificateId, kind: certificateMails.kind })
        .from(certificateMails)
        .where(free)
        .orderBy(asc(certificateMails.createdAt))
        .limit(input.limit)
        .for("update", { skipLocked: true });
      return db
        .update(certificateMails)
        .set({ claimedAt: input.now, attempts: sql`${certificateMails.attempts} + 1` })
        .where(
          and(
            inArray(sql`(${certificateMails.certificateId}, ${certificateMails.kind})`, due),
            free,
          ),
        )
        .returning();
    },

    async markSent(mail: MailKey, at: Date, note: string | null = null) {
      await db.update(certificateMails).set({ sentAt: at, lastError: note }).where(byKey(mail));
    },

    async markFailed(mail: MailKey, error: string) {
      await db
        .update(certificateMails)
        .set({ lastError: error.slice(0, 1000) })
        .where(byKey(mail));
    },
  };
}
