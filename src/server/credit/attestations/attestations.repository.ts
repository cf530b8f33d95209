import { asc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { courseSettingsOf } from "../../db/course-settings";
import { attestationCredits, attestations, courseAttestations } from "./attestations.table";

/** A credit type as claimed in an attestation (what attestation_credits keeps). */
export type StoredClaim = Omit<
  typeof attestationCredits.$inferSelect,
  "attestationId" | "position"
>;

/** The courses' attestation settings, the attestations and their claims; every function runs on the executor it is given. */
export function createAttestationsRepository(db: Executor) {
  const settings = courseSettingsOf(db, courseAttestations);
  /** Claims of a catalogue type merged into another are totalled with that one. */
  async function relinkCatalogueType(fromId: string, intoId: string) {
    await db
      .update(attestationCredits)
      .set({ catalogueTypeId: intoId })
      .where(eq(attestationCredits.catalogueTypeId, fromId));
  }

  async function claimsOf(attestationId: string) {
    const rows = await db
      .select()
      .from(attestationCredits)
      .where(eq(attestationCredits.attestationId, attestationId))
      .orderBy(asc(attestationCredits.position));
    return rows.map(({ attestationId: _, position: __, ...claim }) => claim);
  }

  return {
    relinkCatalogueType,
    /** Whether the course asks learners to attest, and the statement (undefined: the defaults). */
    settingsOf: settings.of,
    /** Saves the values named, in the caller's transaction: the row as it was and is now. */
    editSettings: settings.edit,

    /** The enrollment's attestation with the credit claimed of each type, in order. */
    async attestationOf(enrollmentId: string) {
      const [row] = await db
        .select()
        .from(attestations)
        .where(eq(attestations.enrollmentId, enrollmentId));
      return row ? { ...row, credits: await claimsOf(row.id) } : undefined;
    },

    async insertAttestation(values: typeof attestations.$inferInsert, claims: StoredClaim[] = []) {
      const [row] = await db.insert(attestations).values(values).returning();
      if (claims.length) {
        await db
          .insert(attestationCredits)
          .values(claims.map((c, position) => ({ ...c, attestationId: row!.id, position })));
      }
      return { ...row!, credits: claims };
    },
  };
}
