import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { attestations } from "./attestations.table";

/** The attestations; every function runs on the executor it is given. */
export function createAttestationsRepository(db: Executor) {
  return {
    async attestationOf(enrollmentId: string) {
      const [row] = await db
        .select()
        .from(attestations)
        .where(eq(attestations.enrollmentId, enrollmentId));
      return row;
    },

    async insertAttestation(values: typeof attestations.$inferInsert) {
      const [row] = await db.insert(attestations).values(values).returning();
      return row!;
    },
  };
}
