import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { learnerLicences } from "./credit.table";

/** Learners' licences; every function runs on the executor it is given. */
export function createCreditRepository(db: Executor) {
  return {
    async licenceOf(userId: string) {
      const [row] = await db
        .select()
        .from(learnerLicences)
        .where(eq(learnerLicences.userId, userId));
      return row;
    },

    async saveLicence(userId: string, values: Omit<typeof learnerLicences.$inferInsert, "userId">) {
      const [row] = await db
        .insert(learnerLicences)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: learnerLicences.userId,
          set: { ...values, updatedAt: new Date() },
        })
        .returning();
      return row!;
    },
  };
}
