import { and, asc, count, eq, sql } from "drizzle-orm";
import type { CatalogueTypeBody, CreditBodyBody } from "../../../contract";
import type { Executor } from "../../db/client";
import { courseCreditTypes } from "./course-credit.table";
import { creditBodies, creditCatalogue, creditCatalogueMerges } from "./credit-catalogue.table";

/** The organisation's credit catalogue: its bodies and credit types. */
export function createCreditCatalogueRepository(db: Executor) {
  return {
    async bodies() {
      return db
        .select({
          id: creditBodies.id,
          name: creditBodies.name,
          providerNumber: creditBodies.providerNumber,
          minutesPerHour: creditBodies.minutesPerHour,
          // $count names both tables in full: a plain sql fragment of a one-table select
          // would leave "id" unqualified, and the count would compare a type with itself.
          types: db.$count(creditCatalogue, eq(creditCatalogue.bodyId, creditBodies.id)),
        })
        .from(creditBodies)
        .orderBy(asc(sql`lower(${creditBodies.name})`));
    },

    async types() {
      return db
        .select({
          row: creditCatalogue,
          courses: sql<number>`(select count(*)::int from "course_credit_types" o where o."catalogue_type_id" = "credit_catalogue"."id")`,
        })
        .from(creditCatalogue)
        .leftJoin(creditBodies, eq(creditBodies.id, creditCatalogue.bodyId))
        .orderBy(
          asc(sql`lower(coalesce(${creditBodies.name}, ''))`),
          asc(sql`lower(${creditCatalogue.name})`),
        );
    },

    async body(id: string) {
      const [row] = await db.select().from(creditBodies).where(eq(creditBodies.id, id));
      return row ?? null;
    },

    async bodyByName(name: string) {
      const [row] = await db
        .select()
        .from(creditBodies)
        .where(sql`lower(${creditBodies.name}) = lower(${name})`);
      return row ?? null;
    },

    /** The type, locked for an edit that must see it unchanged until commit. */
    async lockType(id: string) {
      const [row] = await db
        .select()
        .from(creditCatalogue)
        .where(eq(creditCatalogue.id, id))
        .for("update");
      return row ?? null;
    },

    async typeByName(bodyId: string | null, name: string) {
      const [row] = await db
        .select()
        .from(creditCatalogue)
        .where(
          and(
            sql`coalesce(${creditCatalogue.bodyId}, '') = ${bodyId ?? ""}`,
            sql`lower(${creditCatalogue.name}) = lower(${name})`,
          ),
        );
      return row ?? null;
    },

    async insertBody(values: CreditBodyBody) {
      const [row] = await db.insert(creditBodies).values(values).returning();
      return row!;
    },

    /**
     * Adds a body a course's words name, unless another edit added one of that name meanwhile
     * (null then: the caller reads that one). Waits for such an edit to commit or roll back.
     */
    async insertBodyUnlessNamed(values: CreditBodyBody) {
      const [row] = await db.insert(creditBodies).values(values).onConflictDoNothing().returning();
      return row ?? null;
    },

    async updateBody(id: string, values: Partial<CreditBodyBody>) {
      const [row] = await db
        .update(creditBodies)
        .set(values)
        .where(eq(creditBodies.id, id))
        .returning();
      return row ?? null;
    },

    async deleteBody(id: string) {
      await db.delete(creditBodies).where(eq(creditBodies.id, id));
    },

    async typesOfBody(id: string) {
      const [row] = await db
        .select({ n: count() })
        .from(creditCatalogue)
        .where(eq(creditCatalogue.bodyId, id));
      return row!.n;
    },

    async insertType(values: CatalogueTypeBody & { needsReview?: boolean }) {
      const [row] = await db.insert(creditCatalogue).values(values).returning();
      return row!;
    },

    /** As insertBodyUnlessNamed, for a type a course's words name. */
    async insertTypeUnlessNamed(values: CatalogueTypeBody & { needsReview?: boolean }) {
      const [row] = await db
        .insert(creditCatalogue)
        .values(values)
        .onConflictDoNothing()
        .returning();
      return row ?? null;
    },

    async updateType(id: string, values: Partial<CatalogueTypeBody> & { needsReview?: boolean }) {
      const [row] = await db
        .update(creditCatalogue)
        .set(values)
        .where(eq(creditCatalogue.id, id))
        .returning();
      return row ?? null;
    },

    async deleteType(id: string) {
      await db.delete(creditCatalogue).where(eq(creditCatalogue.id, id));
    },

    /** The courses offering the type. */
    async coursesOffering(id: string) {
      return db
        .select({ courseId: courseCreditTypes.courseId })
        .from(courseCreditTypes)
        .where(eq(courseCreditTypes.catalogueTypeId, id));
    },

    /** Every course offering `fromId` offers `intoId` in its place, with its own amount. */
    async repoint(fromId: string, intoId: string) {
      await db
        .update(courseCreditTypes)
        .set({ catalogueTypeId: intoId })
        .where(eq(courseCreditTypes.catalogueTypeId, fromId));
      await db.insert(creditCatalogueMerges).values({ fromId, intoId });
    },
  };
}
