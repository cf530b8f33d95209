import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { modulePackages } from "../../catalogue";
import type { Executor } from "../../db/client";
import {
  type PackageAttemptRow,
  type PackageItemStateRow,
  packageAttempts,
  packageItemStates,
} from "./package-runs.table";

export interface AttemptKey {
  userId: string;
  courseId: string;
  moduleId: string;
}

const openOf = (k: AttemptKey) =>
  and(
    eq(packageAttempts.userId, k.userId),
    eq(packageAttempts.courseId, k.courseId),
    eq(packageAttempts.moduleId, k.moduleId),
    isNull(packageAttempts.endedAt),
  );

export function createPackageRunsRepository(db: Executor) {
  return {
    /** The learner's open attempt at a module, if any. */
    async findOpen(key: AttemptKey): Promise<PackageAttemptRow | undefined> {
      const [row] = await db.select().from(packageAttempts).where(openOf(key));
      return row;
    },

    /**
     * The learner's open attempt at the package the module plays now; none while the open
     * one is at a package an administrator has since replaced (the next launch ends it).
     */
    async findOpenAtCurrentPackage(key: AttemptKey): Promise<PackageAttemptRow | undefined> {
      const [row] = await db
        .select({ attempt: packageAttempts })
        .from(packageAttempts)
        .innerJoin(
          modulePackages,
          and(
            eq(modulePackages.courseId, packageAttempts.courseId),
            eq(modulePackages.moduleId, packageAttempts.moduleId),
            eq(modulePackages.packageId, packageAttempts.packageId),
          ),
        )
        .where(openOf(key));
      return row?.attempt;
    },

    /** The open attempt, locked until the transaction ends: commits and beats run in turn. */
    async lockOpen(key: AttemptKey): Promise<PackageAttemptRow | undefined> {
      const [row] = await db.select().from(packageAttempts).where(openOf(key)).for("update");
      return row;
    },

    /** Writes the seat time the portal measured and when it last measured it. */
    async recordSeat(
      id: string,
      values: Pick<PackageAttemptRow, "seatSeconds" | "lastSeatAt">,
    ): Promise<void> {
      await db
        .update(packageAttempts)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(packageAttempts.id, id));
    },

    /**
     * The learner's open attempt at the module's package, opened now when there is none (or
     * the module now plays another package, which ends the old one). Two launches at once
     * open one attempt: the partial unique index keeps one open, and the loser reads it.
     */
    async open(key: AttemptKey & { packageId: string }): Promise<PackageAttemptRow> {
      const current = await this.findOpen(key);
      if (current && current.packageId === key.packageId) return current;
      if (current) await this.end(current.id, null);
      const [last] = await db
        .select({ number: packageAttempts.number })
        .from(packageAttempts)
        .where(
          and(
            eq(packageAttempts.userId, key.userId),
            eq(packageAttempts.courseId, key.courseId),
            eq(packageAttempts.moduleId, key.moduleId),
          ),
        )
        .orderBy(desc(packageAttempts.number))
        .limit(1);
      const [row] = await db
        .insert(packageAttempts)
        .values({ ...key, number: (last?.number ?? 0) + 1 })
        .onConflictDoNothing()
        .returning();
      return row ?? (await this.findOpen(key))!;
    },

    /** Ends an attempt (an administrator's reset, or its module's package replaced). */
    async end(id: string, endedBy: string | null): Promise<void> {
      await db
        .update(packageAttempts)
        .set({ endedAt: sql`now()`, endedBy, updatedAt: sql`now()` })
        .where(and(eq(packageAttempts.id, id), isNull(packageAttempts.endedAt)));
    },

    /** The attempt a cmi5 registration names, locked for the rest of the transaction. */
    async lockByRegistration(registration: string): Promise<PackageAttemptRow | undefined> {
      const [row] = await db
        .select()
        .from(packageAttempts)
        .where(eq(packageAttempts.registration, registration))
        .for("update");
      return row;
    },

    /** What the package reported of each item in an attempt. */
    async itemStates(attemptId: string): Promise<PackageItemStateRow[]> {
      return db.select().from(packageItemStates).where(eq(packageItemStates.attemptId, attemptId));
    },

    /** Writes what the package reported of one item (the fields given, the rest kept). */
    async saveItemState(
      attemptId: string,
      itemId: string,
      values: Partial<Omit<PackageItemStateRow, "attemptId" | "itemId" | "updatedAt">>,
    ): Promise<void> {
      await db
        .insert(packageItemStates)
        .values({ attemptId, itemId, ...values })
        .onConflictDoUpdate({
          target: [packageItemStates.attemptId, packageItemStates.itemId],
          set: { ...values, updatedAt: sql`now()` },
        });
    },

    /** Writes what the package reported of the whole attempt. */
    async updateAttempt(
      id: string,
      values: Partial<
        Pick<
          PackageAttemptRow,
          "completion" | "success" | "scoreScaled" | "reportedSeconds" | "satisfiedAt"
        >
      >,
    ): Promise<void> {
      await db
        .update(packageAttempts)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(packageAttempts.id, id));
    },

    /** The attempt a cmi5 registration names. */
    async findByRegistration(registration: string): Promise<PackageAttemptRow | undefined> {
      const [row] = await db
        .select()
        .from(packageAttempts)
        .where(eq(packageAttempts.registration, registration));
      return row;
    },
  };
}
