import { and, asc, eq, notInArray, sql } from "drizzle-orm";
import type { CreditType } from "../../../contract";
import type { Executor } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import { courseCreditTypes } from "./course-credit.table";
import { creditBodies, creditCatalogue } from "./credit-catalogue.table";

/** One credit type a course offers, as stored: a catalogue type with the course's own terms. */
export interface CreditOfferRow {
  id?: string;
  catalogueTypeId: string;
  amount: number;
  designationStatement: string;
  claimStep: number | null;
}

/** The credit types courses offer, each read with its catalogue type's words and body. */
export function createCreditOffersRepository(db: Executor) {
  return {
    // A read of every course a learner opens: one prepared statement for any number of ids.
    async creditTypesOf(courseIds: string[]): Promise<(CreditType & { courseId: string })[]> {
      if (!courseIds.length) return [];
      const statement = preparedOnce(db, "credit_types_of_courses", (d) =>
        d
          .select({
            courseId: courseCreditTypes.courseId,
            id: courseCreditTypes.id,
            catalogueTypeId: courseCreditTypes.catalogueTypeId,
            name: creditCatalogue.name,
            singularName: creditCatalogue.singularName,
            profession: creditCatalogue.profession,
            amount: courseCreditTypes.amount,
            accreditingBody: creditBodies.name,
            providerNumber: creditBodies.providerNumber,
            minutesPerHour: creditBodies.minutesPerHour,
            accreditationStatement: creditCatalogue.accreditationStatement,
            designationStatement: courseCreditTypes.designationStatement,
            claimStep: courseCreditTypes.claimStep,
            licenceRequired: creditCatalogue.licenceRequired,
            fieldsOfStudyRequired: creditCatalogue.fieldsOfStudyRequired,
            regulators: creditCatalogue.regulators,
          })
          .from(courseCreditTypes)
          .innerJoin(creditCatalogue, eq(creditCatalogue.id, courseCreditTypes.catalogueTypeId))
          .leftJoin(creditBodies, eq(creditBodies.id, creditCatalogue.bodyId))
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
        minutesPerHour: r.minutesPerHour ?? 60,
      }));
    },

    /** The ids of the course's credit types (to check the ids an edit names). */
    async creditTypeIds(courseId: string): Promise<string[]> {
      const rows = await db
        .select({ id: courseCreditTypes.id })
        .from(courseCreditTypes)
        .where(eq(courseCreditTypes.courseId, courseId));
      return rows.map((r) => r.id);
    },

    /**
     * Replaces the course's offer (in a transaction with the course locked), keeping the ids
     * of the types named by id so learners' claims stay linked to them.
     */
    async replace(courseId: string, offers: CreditOfferRow[]): Promise<void> {
      const kept = offers.flatMap((t) => (t.id ? [t.id] : []));
      await db
        .delete(courseCreditTypes)
        .where(
          and(
            eq(courseCreditTypes.courseId, courseId),
            kept.length ? notInArray(courseCreditTypes.id, kept) : undefined,
          ),
        );
      for (const [position, { id, ...values }] of offers.entries()) {
        if (id) {
          await db
            .update(courseCreditTypes)
            .set({ ...values, position })
            .where(and(eq(courseCreditTypes.id, id), eq(courseCreditTypes.courseId, courseId)));
        } else {
          await db.insert(courseCreditTypes).values({ courseId, position, ...values });
        }
      }
    },
  };
}
