import { and, asc, count, eq, isNotNull, isNull, max, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { certificateRecords } from "../certificates/certificates.read-model";
import {
  type CredentialKeyRow,
  type CredentialRow,
  credentialKeys,
  credentialStatusLists,
  credentials,
} from "./credentials.table";

/** Every instance takes this advisory lock to add or rotate the signing key. */
const SIGNING_KEY_LOCK_ID = 7_311_023;

export function createCredentialsRepository(db: Executor) {
  return {
    /** Serialises key changes across instances until the transaction ends. */
    async lockKeys() {
      await db.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEY_LOCK_ID})`);
    },

    async signingKey(): Promise<CredentialKeyRow | undefined> {
      const [row] = await db.select().from(credentialKeys).where(isNull(credentialKeys.retiredAt));
      return row;
    },

    /** Every key, oldest first: the DID document publishes them all. */
    async allKeys(): Promise<CredentialKeyRow[]> {
      return db
        .select()
        .from(credentialKeys)
        .orderBy(asc(credentialKeys.createdAt), asc(credentialKeys.id));
    },

    /** Adds a signing key unless one signs already (the unique index): undefined then. */
    async insertSigningKey(
      values: typeof credentialKeys.$inferInsert,
    ): Promise<CredentialKeyRow | undefined> {
      const [row] = await db
        .insert(credentialKeys)
        .values(values)
        .onConflictDoNothing()
        .returning();
      return row;
    },

    /** Retires the signing key; returns it, or undefined when none signed. */
    async retireSigningKey(): Promise<CredentialKeyRow | undefined> {
      const [row] = await db
        .update(credentialKeys)
        .set({ retiredAt: sql`now()` })
        .where(isNull(credentialKeys.retiredAt))
        .returning();
      return row;
    },

    async findCredential(certificateId: string): Promise<CredentialRow | undefined> {
      const [row] = await db
        .select()
        .from(credentials)
        .where(eq(credentials.certificateId, certificateId));
      return row;
    },

    async credentialCount(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(credentials);
      return row?.n ?? 0;
    },

    /**
     * Takes a status bit for the certificate. Undefined when the bit is taken (try another)
     * or the certificate has one already (read it).
     */
    async takeStatusBit(values: {
      certificateId: string;
      statusList: number;
      statusIndex: number;
    }): Promise<CredentialRow | undefined> {
      const [row] = await db.insert(credentials).values(values).onConflictDoNothing().returning();
      return row;
    },

    /** Stores the signed credential once: a second signer's copy is dropped. */
    async saveSigned(certificateId: string, document: string, keyId: string) {
      await db
        .update(credentials)
        .set({ document, keyId, signedAt: sql`now()` })
        .where(and(eq(credentials.certificateId, certificateId), isNull(credentials.document)));
    },

    async listExists(list: number): Promise<boolean> {
      const [row] = await db
        .select({ last: max(credentials.statusList) })
        .from(credentials)
        .where(eq(credentials.statusList, list));
      return row?.last != null;
    },

    /**
     * The bits of a list whose certificate is revoked, read from the certificates as their
     * read model exposes them: revoking a certificate is what sets its bit, with nothing else
     * to keep in step.
     */
    async revokedIndexes(list: number): Promise<number[]> {
      const rows = await db
        .select({ index: credentials.statusIndex })
        .from(credentials)
        .innerJoin(certificateRecords, eq(certificateRecords.id, credentials.certificateId))
        .where(and(eq(credentials.statusList, list), isNotNull(certificateRecords.revokedAt)));
      return rows.map((r) => r.index);
    },

    async storedStatusList(list: number) {
      const [row] = await db
        .select()
        .from(credentialStatusLists)
        .where(eq(credentialStatusLists.id, list));
      return row;
    },

    async saveStatusList(list: number, encodedList: string, document: string) {
      await db
        .insert(credentialStatusLists)
        .values({ id: list, encodedList, document })
        .onConflictDoUpdate({
          target: credentialStatusLists.id,
          set: { encodedList, document, signedAt: sql`now()` },
        });
    },
  };
}
