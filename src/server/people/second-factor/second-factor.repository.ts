import { and, asc, count, eq, isNull, lt, min, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import {
  recoveryCodes,
  type SecondFactorChallengeRow,
  secondFactorChallenges,
  secondFactorPolicy,
  secondFactors,
} from "./second-factor.table";

type NewChallenge = typeof secondFactorChallenges.$inferInsert;
type NewFactor = typeof secondFactors.$inferInsert;

/** Data access for second factors, recovery codes, ceremonies and the rule. */
export function createSecondFactorRepository(db: Executor) {
  return {
    factorsOf: (userId: string) =>
      db
        .select()
        .from(secondFactors)
        .where(eq(secondFactors.userId, userId))
        .orderBy(asc(secondFactors.createdAt), asc(secondFactors.id)),

    /** The ids of the user's factors, locked until the transaction ends. */
    async lockFactorsOf(userId: string): Promise<string[]> {
      const rows = await db
        .select({ id: secondFactors.id })
        .from(secondFactors)
        .where(eq(secondFactors.userId, userId))
        .for("update");
      return rows.map((row) => row.id);
    },

    async countFactors(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(secondFactors)
        .where(eq(secondFactors.userId, userId));
      return row?.n ?? 0;
    },

    async insertFactor(row: NewFactor) {
      const [inserted] = await db
        .insert(secondFactors)
        .values(row)
        .onConflictDoNothing()
        .returning();
      return inserted;
    },

    async deleteFactor(userId: string, id: string) {
      const [deleted] = await db
        .delete(secondFactors)
        .where(and(eq(secondFactors.userId, userId), eq(secondFactors.id, id)))
        .returning();
      return deleted;
    },

    /**
     * Accepts an authenticator app's time step only when it is later than the last one
     * accepted, in one statement: two requests with the same code cannot both pass.
     */
    async acceptTotpStep(id: string, step: number, at: Date): Promise<boolean> {
      const rows = await db
        .update(secondFactors)
        .set({ totpLastStep: step, lastUsedAt: at })
        .where(
          and(
            eq(secondFactors.id, id),
            or(isNull(secondFactors.totpLastStep), lt(secondFactors.totpLastStep, step)),
          ),
        )
        .returning({ id: secondFactors.id });
      return rows.length === 1;
    },

    /** A passkey's signature passed: keep its counter and when it was used. */
    async passkeyUsed(id: string, signCount: number, at: Date) {
      await db
        .update(secondFactors)
        .set({ signCount, lastUsedAt: at })
        .where(eq(secondFactors.id, id));
    },

    async replaceRecoveryCodes(userId: string, hashes: string[]) {
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    },

    /** Marks an unused code used; false when it is unknown or was used before. */
    async spendRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: at })
        .where(
          and(
            eq(recoveryCodes.userId, userId),
            eq(recoveryCodes.codeHash, codeHash),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      return rows.length === 1;
    },

    async recoveryCodesOf(userId: string) {
      const [row] = await db
        .select({
          total: count(),
          remaining: sql<number>`count(*) filter (where ${recoveryCodes.usedAt} is null)`.mapWith(
            Number,
          ),
          createdAt: min(recoveryCodes.createdAt),
        })
        .from(recoveryCodes)
        .where(eq(recoveryCodes.userId, userId));
      return row && row.total > 0 && row.createdAt
        ? { remaining: row.remaining, createdAt: row.createdAt }
        : null;
    },

    deleteRecoveryCodes: (userId: string) =>
      db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),

    async insertChallenge(row: NewChallenge): Promise<SecondFactorChallengeRow> {
      const [inserted] = await db.insert(secondFactorChallenges).values(row).returning();
      return inserted!;
    },

    async findSignIn(tokenHash: string): Promise<SecondFactorChallengeRow | undefined> {
      const [row] = await db
        .select()
        .from(secondFactorChallenges)
        .where(
          and(
            eq(secondFactorChallenges.tokenHash, tokenHash),
            eq(secondFactorChallenges.purpose, "sign-in"),
          ),
        )
        .limit(1);
      return row;
    },

    async findEnrolment(userId: string): Promise<SecondFactorChallengeRow | undefined> {
      const [row] = await db
        .select()
        .from(secondFactorChallenges)
        .where(
          and(
            eq(secondFactorChallenges.userId, userId),
            eq(secondFactorChallenges.purpose, "enrol"),
          ),
        )
        .limit(1);
      return row;
    },

    deleteEnrolment: (userId: string) =>
      db
        .delete(secondFactorChallenges)
        .where(
          and(
            eq(secondFactorChallenges.userId, userId),
            eq(secondFactorChallenges.purpose, "enrol"),
          ),
        ),

    deletePendingSignIns: (userId: string) =>
      db
        .delete(secondFactorChallenges)
        .where(
          and(
            eq(secondFactorChallenges.userId, userId),
            eq(secondFactorChallenges.purpose, "sign-in"),
          ),
        ),

    async updateChallenge(id: string, change: Partial<NewChallenge>) {
      await db.update(secondFactorChallenges).set(change).where(eq(secondFactorChallenges.id, id));
    },

    /** Uses a live ceremony once: false when it was used (or ran out) meanwhile. */
    async consumeChallenge(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(secondFactorChallenges)
        .set({ usedAt: at })
        .where(
          and(
            eq(secondFactorChallenges.id, id),
            isNull(secondFactorChallenges.usedAt),
            sql`${secondFactorChallenges.expiresAt} > ${at}`,
          ),
        )
        .returning({ id: secondFactorChallenges.id });
      return rows.length === 1;
    },

    purgeChallenges: (before: Date) =>
      db.delete(secondFactorChallenges).where(lt(secondFactorChallenges.expiresAt, before)),

    async policyRequired(): Promise<boolean> {
      const [row] = await db.select().from(secondFactorPolicy).limit(1);
      return row?.required ?? false;
    },

    async setPolicy(required: boolean) {
      await db
        .insert(secondFactorPolicy)
        .values({ id: 1, required })
        .onConflictDoUpdate({
          target: secondFactorPolicy.id,
          set: { required, updatedAt: new Date() },
        });
    },
  };
}
