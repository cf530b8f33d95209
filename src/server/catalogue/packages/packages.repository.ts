import { and, asc, desc, eq, inArray, lt, ne } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { contentPackages, type PackageRow } from "./packages.table";

export function createPackagesRepository(db: Executor) {
  return {
    async insert(values: typeof contentPackages.$inferInsert): Promise<PackageRow> {
      const [row] = await db.insert(contentPackages).values(values).returning();
      return row!;
    },

    async markReady(id: string): Promise<PackageRow | undefined> {
      const [row] = await db
        .update(contentPackages)
        .set({ status: "ready", updatedAt: new Date() })
        .where(and(eq(contentPackages.id, id), eq(contentPackages.status, "unpacking")))
        .returning();
      return row;
    },

    /** The newest ready package unpacked from this upload, if any. */
    async findReadyBySource(sourcePath: string): Promise<PackageRow | undefined> {
      const [row] = await db
        .select()
        .from(contentPackages)
        .where(and(eq(contentPackages.sourcePath, sourcePath), eq(contentPackages.status, "ready")))
        .orderBy(desc(contentPackages.createdAt))
        .limit(1);
      return row;
    },

    async findByIds(ids: string[]): Promise<PackageRow[]> {
      if (!ids.length) return [];
      return db.select().from(contentPackages).where(inArray(contentPackages.id, ids));
    },

    async delete(id: string): Promise<PackageRow | undefined> {
      const [row] = await db.delete(contentPackages).where(eq(contentPackages.id, id)).returning();
      return row;
    },

    /** Packages still unpacking since before `cutoff`: their unpacking stopped halfway. */
    async unfinishedBefore(cutoff: Date, limit: number): Promise<PackageRow[]> {
      return db
        .select()
        .from(contentPackages)
        .where(and(eq(contentPackages.status, "unpacking"), lt(contentPackages.createdAt, cutoff)))
        .orderBy(asc(contentPackages.createdAt))
        .limit(limit);
    },

    /** Deletes a package only while it is still unpacking. */
    async deleteUnfinished(id: string): Promise<void> {
      await db
        .delete(contentPackages)
        .where(and(eq(contentPackages.id, id), eq(contentPackages.status, "unpacking")));
    },

    /** Whether another package was unpacked from the same upload. */
    async sourceShared(sourcePath: string, exceptId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: contentPackages.id })
        .from(contentPackages)
        .where(and(eq(contentPackages.sourcePath, sourcePath), ne(contentPackages.id, exceptId)))
        .limit(1);
      return row !== undefined;
    },
  };
}
