import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type ObjectRow, objects } from "./objects.table";

export function createObjectsRepository(db: Executor) {
  return {
    async insert(values: typeof objects.$inferInsert): Promise<ObjectRow> {
      const [row] = await db.insert(objects).values(values).returning();
      return row!;
    },

    async findById(id: string): Promise<ObjectRow | undefined> {
      const [row] = await db.select().from(objects).where(eq(objects.id, id)).limit(1);
      return row;
    },

    /** Moves an object between states only from the expected one (no double transitions). */
    async transition(
      id: string,
      from: ObjectRow["status"][],
      values: Partial<Pick<ObjectRow, "status" | "contentType" | "size" | "durationSeconds">>,
    ): Promise<ObjectRow | undefined> {
      const [row] = await db
        .update(objects)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(objects.id, id), inArray(objects.status, from)))
        .returning();
      return row;
    },

    async deleteMany(ids: string[]): Promise<void> {
      if (ids.length) await db.delete(objects).where(inArray(objects.id, ids));
    },
  };
}
