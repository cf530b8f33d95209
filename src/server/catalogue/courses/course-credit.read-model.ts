import type { CreditType } from "../../../contract";
import type { Executor } from "../../db/client";
import { createCoursesRepository } from "./courses.repository";

/**
 * The credit types a course offers, in order, as the credit steps read them (the attestation
 * reads them from the course in its context; the certificate step with its own settings).
 */
export async function creditTypesOfCourse(db: Executor, courseId: string): Promise<CreditType[]> {
  const rows = await createCoursesRepository(db).creditTypesOf([courseId]);
  return rows.map(({ courseId: _, ...type }) => type);
}
