import { and, eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "./client";

/**
 * A feature's settings of a course: one row per course (or per course and `scope`, such as a
 * form step), keyed by it, the defaults until saved.
 */
type CourseSettingsTable = PgTable & { courseId: PgColumn; updatedAt: PgColumn };

/**
 * Reads and writes of one feature's settings of a course, for that feature's repository:
 * the row (undefined while the course has the defaults), and an edit that locks the row
 * (created with the defaults when missing, so the edit compares against them) and saves the
 * values named. `scope` names the other key columns of a row and their values.
 */
export function courseSettingsOf<T extends CourseSettingsTable>(
  db: Executor,
  table: T,
  scope: Partial<Record<keyof T["$inferInsert"] & string, string>> = {},
) {
  type Row = T["$inferSelect"];
  type Values = Partial<Omit<T["$inferInsert"], "courseId">>;
  const columns = table as unknown as Record<string, PgColumn>;
  const byCourse = (courseId: string) =>
    and(
      eq(table.courseId, courseId),
      ...Object.entries(scope).map(([key, value]) => eq(columns[key]!, value)),
    );

  async function of(courseId: string): Promise<Row | undefined> {
    const [row] = await db
      .select()
      .from(table as PgTable)
      .where(byCourse(courseId));
    return row as Row | undefined;
  }

  /** Saves the values named on the locked row: the row as it was and as it is now. */
  async function edit(courseId: string, values: Values): Promise<{ before: Row; after: Row }> {
    await db
      .insert(table)
      .values({ courseId, ...scope } as T["$inferInsert"])
      .onConflictDoNothing();
    const [before] = await db
      .select()
      .from(table as PgTable)
      .where(byCourse(courseId))
      .for("update");
    const updated = (await db
      .update(table)
      .set({ ...values, updatedAt: new Date() } as never)
      .where(byCourse(courseId))
      .returning()) as Row[];
    return { before: before as Row, after: updated[0]! };
  }

  return { of, edit };
}
