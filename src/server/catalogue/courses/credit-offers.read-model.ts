import { inArray } from "drizzle-orm";
import type { CreditType } from "../../../contract";
import type { Executor } from "../../db/client";
import { creditCatalogue, creditCatalogueMerges } from "./credit-catalogue.table";
import { createCreditOffersRepository } from "./credit-offers.repository";

/**
 * The credit types a course offers, in order, as the credit steps read them (the attestation
 * reads them from the course in its context; the certificate step with its own settings).
 */
export async function creditTypesOfCourse(db: Executor, courseId: string): Promise<CreditType[]> {
  const rows = await createCreditOffersRepository(db).creditTypesOf([courseId]);
  return rows.map(({ courseId: _, ...type }) => type);
}

/** The credit types of several courses, each with its course id, in each course's order. */
export const creditTypesOfCourses = (db: Executor, courseIds: string[]) =>
  createCreditOffersRepository(db).creditTypesOf(courseIds);

/** The catalogue's names of the types, by id, as totals name them. */
export async function catalogueTypeNames(
  db: Executor,
  ids: string[],
): Promise<Map<string, { name: string; singularName: string }>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      id: creditCatalogue.id,
      name: creditCatalogue.name,
      singularName: creditCatalogue.singularName,
    })
    .from(creditCatalogue)
    .where(inArray(creditCatalogue.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Where each of the catalogue types stands now: the type it was merged into (followed
 * through later merges), or itself. A merge is rare, so every merge is read at once.
 */
export async function currentCatalogueTypes(
  db: Executor,
  ids: string[],
): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const merges = new Map(
    (await db.select().from(creditCatalogueMerges)).map((m) => [m.fromId, m.intoId]),
  );
  return new Map(
    ids.map((id) => {
      let current = id;
      // Each step moves to a later merge's type; the bound keeps a bad row from looping.
      for (let step = 0; step < merges.size && merges.has(current); step++) {
        current = merges.get(current)!;
      }
      return [id, current];
    }),
  );
}
