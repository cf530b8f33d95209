import { eq } from "drizzle-orm";
import type { IdentifiersBody } from "../../../contract";
import type { Executor } from "../../db/client";
import { learnerIdentifiers } from "./identifiers.table";

/** The learners' identifiers; every function runs on the executor it is given. */
export function createIdentifiersRepository(db: Executor) {
  return {
    /** The learner's row; `lock` holds it until the caller's transaction ends. */
    async of(userId: string, options: { lock?: boolean } = {}) {
      const query = db
        .select()
        .from(learnerIdentifiers)
        .where(eq(learnerIdentifiers.userId, userId));
      const [row] = options.lock ? await query.for("update") : await query;
      return row;
    },

    /**
     * Saves the values named, each column on its own, so two saves naming different values
     * (the profile in one tab, the attestation in another) both keep theirs.
     */
    async save(userId: string, values: IdentifiersBody) {
      await db
        .insert(learnerIdentifiers)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: learnerIdentifiers.userId,
          set: { ...values, updatedAt: new Date() },
        });
    },
  };
}
