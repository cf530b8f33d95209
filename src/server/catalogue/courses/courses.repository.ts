import { and, asc, desc, eq, inArray, max, ne, notInArray, or, sql } from "drizzle-orm";
import type { CourseCreditBody, CreditType, CreditTypeBody } from "../../../contract";
import type { Executor } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import { courseCreditBodies, courseCreditTypes } from "./course-credit.table";
import { type CourseRow, courses, type ModuleRow, modules } from "./courses.table";

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

    /** The credit types of the courses, in order, with their body and its provider number. */
    async creditTypesOf(courseIds: string[]): Promise<(CreditType & { courseId: string })[]> {
      if (!courseIds.length) return [];
      const statement = preparedOnce(db, "credit_types_of_courses", (d) =>
        d
          .select({
            courseId: courseCreditTypes.courseId,
            id: courseCreditTypes.id,
            name: courseCreditTypes.name,
            amount: courseCreditTypes.amount,
            accreditingBody: courseCreditBodies.name,
            providerNumber: courseCreditBodies.providerNumber,
            accreditationStatement: courseCreditTypes.accreditationStatement,
            designationStatement: courseCreditTypes.designationStatement,
            claimStep: courseCreditTypes.claimStep,
            licenceRequired: courseCreditTypes.licenceRequired,
          })
          .from(courseCreditTypes)
          .leftJoin(courseCreditBodies, eq(courseCreditBodies.id, courseCreditTypes.bodyId))
          .where(sql`${courseCreditTypes.courseId} = any(${sql.placeholder("ids")})`)
          .orderBy(asc(courseCreditTypes.courseId), asc(courseCreditTypes.position))
          .prepare("credit_types_of_courses"),
      );
      const rows = await statement.execute({ ids: courseIds });
      return rows.map((r) => ({
        ...r,
        amount: Number(r.amount),
        claimStep: r.claimStep === null ? null : Number(r.claimStep),
        providerNumber: r.providerNumber || null,
      }));
    },

    /**
     * Replaces the course's credit offer (run in a transaction with the course locked): the
     * bodies by name, then the types in order, keeping the ids of the types named by id so
     * learners' claims stay linked to them.
     */
    async replaceCredit(courseId: string, body: CourseCreditBody): Promise<void> {
      const existingBodies = await db
        .select()
        .from(courseCreditBodies)
        .where(eq(courseCreditBodies.courseId, courseId));
      const bodyIds = new Map<string, string>();
      for (const b of body.bodies) {
        const key = b.name.toLocaleLowerCase();
        const found = existingBodies.find((e) => e.name.toLocaleLowerCase() === key);
        if (found) {
          await db
            .update(courseCreditBodies)
            .set({ name: b.name, providerNumber: b.providerNumber })
            .where(eq(courseCreditBodies.id, found.id));
          bodyIds.set(key, found.id);
        } else {
          const [row] = await db
            .insert(courseCreditBodies)
            .values({ courseId, name: b.name, providerNumber: b.providerNumber })
            .returning({ id: courseCreditBodies.id });
          bodyIds.set(key, row!.id);
        }
      }
      const kept = body.types.flatMap((t) => (t.id ? [t.id] : []));
      await db
        .delete(courseCreditTypes)
        .where(
          and(
            eq(courseCreditTypes.courseId, courseId),
            kept.length ? notInArray(courseCreditTypes.id, kept) : undefined,
          ),
        );
      const values = (t: CreditTypeBody, position: number) => ({
        position,
        name: t.name,
        amount: t.amount,
        bodyId: t.accreditingBody ? bodyIds.get(t.accreditingBody.toLocaleLowerCase())! : null,
        accreditationStatement: t.accreditationStatement,
        designationStatement: t.designationStatement,
        claimStep: t.claimStep,
        licenceRequired: t.licenceRequired,
      });
      for (const [position, t] of body.types.entries()) {
        if (t.id) {
          await db
            .update(courseCreditTypes)
            .set(values(t, position))
            .where(and(eq(courseCreditTypes.id, t.id), eq(courseCreditTypes.courseId, courseId)));
        } else {
          await db.insert(courseCreditTypes).values({ courseId, ...values(t, position) });
        }
      }
      const unused = existingBodies
        .filter((e) => ![...bodyIds.values()].includes(e.id))
        .map((e) => e.id);
      if (unused.length) {
        await db.delete(courseCreditBodies).where(inArray(courseCreditBodies.id, unused));
      }
    },

    /** The ids of the course's credit types (to check the ids an edit names). */
    async creditTypeIds(courseId: string): Promise<string[]> {
      const rows = await db
        .select({ id: courseCreditTypes.id })
        .from(courseCreditTypes)
        .where(eq(courseCreditTypes.courseId, courseId));
      return rows.map((r) => r.id);
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
        Pick<ModuleRow, "title" | "description" | "duration" | "videoUrl" | "videoSeconds">
      >,
    ): Promise<ModuleRow | undefined> {
      const [row] = await db
        .update(modules)
        .set(values)
        .where(and(eq(modules.courseId, courseId), eq(modules.id, id)))
        .returning();
      return row;
    },

    async deleteModule(courseId: string, id: string): Promise<ModuleRow | undefined> {
      const [row] = await db
        .delete(modules)
        .where(and(eq(modules.courseId, courseId), eq(modules.id, id)))
        .returning();
      return row;
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
