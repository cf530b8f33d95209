import { and, asc, desc, eq, max, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import { type CourseRow, courses, type ModuleRow, modules, retiredModules } from "./courses.table";

export function createCoursesRepository(db: Executor) {
  return {
    async list(): Promise<CourseRow[]> {
      return db.select().from(courses).orderBy(desc(courses.createdAt), desc(courses.id));
    },

    // The read paths of every learner request are prepared statements (db/prepared.ts);
    // `= any($1)` makes one statement serve any number of ids.
    async findById(id: string): Promise<CourseRow | undefined> {
      const statement = preparedOnce(db, "courses_by_id", (d) =>
        d
          .select()
          .from(courses)
          .where(eq(courses.id, sql.placeholder("id")))
          .limit(1)
          .prepare("courses_by_id"),
      );
      const [row] = await statement.execute({ id });
      return row;
    },

    async findByIds(ids: string[]): Promise<CourseRow[]> {
      if (!ids.length) return [];
      const statement = preparedOnce(db, "courses_by_ids", (d) =>
        d
          .select()
          .from(courses)
          .where(sql`${courses.id} = any(${sql.placeholder("ids")})`)
          .prepare("courses_by_ids"),
      );
      return statement.execute({ ids });
    },

    /** Locks the course row for the rest of the transaction (serialises module changes). */
    async lockById(id: string): Promise<CourseRow | undefined> {
      const [row] = await db.select().from(courses).where(eq(courses.id, id)).for("update");
      return row;
    },

    async modulesOf(courseIds: string[]): Promise<ModuleRow[]> {
      if (!courseIds.length) return [];
      const statement = preparedOnce(db, "modules_of_courses", (d) =>
        d
          .select()
          .from(modules)
          .where(sql`${modules.courseId} = any(${sql.placeholder("ids")})`)
          .orderBy(asc(modules.courseId), asc(modules.position), asc(modules.createdAt))
          .prepare("modules_of_courses"),
      );
      return statement.execute({ ids: courseIds });
    },

    async insert(values: typeof courses.$inferInsert): Promise<CourseRow> {
      const [row] = await db.insert(courses).values(values).returning();
      return row!;
    },

    async delete(id: string): Promise<CourseRow | undefined> {
      const [row] = await db.delete(courses).where(eq(courses.id, id)).returning();
      return row;
    },

    /** Sets the given columns (details or settings); undefined for an unknown course. */
    async update(id: string, values: Partial<CourseRow>): Promise<CourseRow | undefined> {
      const [row] = await db
        .update(courses)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(courses.id, id))
        .returning();
      return row;
    },

    /** Publishes only when the course has a module; one statement, so no race with deletes. */
    async publish(id: string): Promise<CourseRow | undefined> {
      const [row] = await db
        .update(courses)
        .set({ isPublished: true, updatedAt: new Date() })
        .where(
          and(
            eq(courses.id, id),
            sql`exists (select 1 from ${modules} where ${modules.courseId} = ${id})`,
          ),
        )
        .returning();
      return row;
    },

    /** Back to draft, only from published; one statement, so two clicks cannot both count. */
    async unpublish(id: string): Promise<CourseRow | undefined> {
      const [row] = await db
        .update(courses)
        .set({ isPublished: false, updatedAt: new Date() })
        .where(and(eq(courses.id, id), eq(courses.isPublished, true)))
        .returning();
      return row;
    },

    /**
     * Gives the modules positions 1..n in the order of `ids` (every module of the course).
     * One statement: positions carry no unique constraint, so no intermediate state collides.
     */
    async setModuleOrder(courseId: string, ids: string[]): Promise<void> {
      if (!ids.length) return;
      const positions = sql.join(
        ids.map((id, index) => sql`(${id}::text, ${index + 1}::int)`),
        sql`, `,
      );
      await db.execute(sql`
        update ${modules} set position = v.position
        from (values ${positions}) as v(id, position)
        where ${modules.courseId} = ${courseId} and ${modules.id} = v.id`);
    },

    async nextPosition(courseId: string): Promise<number> {
      const [row] = await db
        .select({ last: max(modules.position) })
        .from(modules)
        .where(eq(modules.courseId, courseId));
      return (row?.last ?? 0) + 1;
    },

    /** Inserts a module; undefined when its id is taken in the course. */
    async insertModule(values: typeof modules.$inferInsert): Promise<ModuleRow | undefined> {
      const [row] = await db.insert(modules).values(values).onConflictDoNothing().returning();
      return row;
    },

    async updateModule(
      courseId: string,
      id: string,
      values: Partial<
        Pick<
          ModuleRow,
          "title" | "description" | "duration" | "kind" | "videoUrl" | "videoSeconds" | "packageId"
        >
      >,
    ): Promise<ModuleRow | undefined> {
      const [row] = await db
        .update(modules)
        .set(values)
        .where(and(eq(modules.courseId, courseId), eq(modules.id, id)))
        .returning();
      return row;
    },

    /** Removes a module, keeping its id from ever being given to another of the course. */
    async deleteModule(courseId: string, id: string): Promise<ModuleRow | undefined> {
      const [row] = await db
        .delete(modules)
        .where(and(eq(modules.courseId, courseId), eq(modules.id, id)))
        .returning();
      if (row) await db.insert(retiredModules).values({ courseId, id }).onConflictDoNothing();
      return row;
    },

    /** Whether the course had a module of this id once, since removed. */
    async isRetiredModuleId(courseId: string, id: string): Promise<boolean> {
      const [row] = await db
        .select({ id: retiredModules.id })
        .from(retiredModules)
        .where(and(eq(retiredModules.courseId, courseId), eq(retiredModules.id, id)));
      return row !== undefined;
    },

    async countModules(courseId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(modules)
        .where(eq(modules.courseId, courseId));
      return row?.n ?? 0;
    },

    /** Whether any course or module other than the given one still uses an object path. */
    async isObjectInUse(path: string, except?: { courseId: string; moduleId?: string }) {
      const [thumb] = await db
        .select({ id: courses.id })
        .from(courses)
        .where(
          and(
            eq(courses.thumbnail, path),
            except && !except.moduleId ? ne(courses.id, except.courseId) : undefined,
          ),
        )
        .limit(1);
      if (thumb) return true;
      const [video] = await db
        .select({ id: modules.id })
        .from(modules)
        .where(
          and(
            eq(modules.videoUrl, path),
            except?.moduleId
              ? or(ne(modules.courseId, except.courseId), ne(modules.id, except.moduleId))
              : except
                ? ne(modules.courseId, except.courseId)
                : undefined,
          ),
        )
        .limit(1);
      return Boolean(video);
    },

    /** Whether any module still plays this package. */
    async isPackageInUse(packageId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: modules.id })
        .from(modules)
        .where(eq(modules.packageId, packageId))
        .limit(1);
      return row !== undefined;
    },

    /** Courses whose thumbnail is this object path. */
    async coursesWithThumbnail(path: string): Promise<CourseRow[]> {
      return db.select().from(courses).where(eq(courses.thumbnail, path));
    },

    /** Modules (with their course) that play this object path. */
    async modulesWithVideo(path: string): Promise<ModuleRow[]> {
      return db.select().from(modules).where(eq(modules.videoUrl, path));
    },
  };
}

export type CoursesRepository = ReturnType<typeof createCoursesRepository>;
