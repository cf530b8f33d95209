import type { CreditType } from "../../../contract";
import type { Executor } from "../../db/client";
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
