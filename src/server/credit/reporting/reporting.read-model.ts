import { asc, inArray } from "drizzle-orm";
import {
  type ClaimRegulatorIds,
  type CourseReporting,
  EMPTY_ACTIVITY_DETAILS,
  missingRegulatorIds,
  REGULATORS,
  type Regulator,
  type RegulatorActivity,
  regulatorIdsOf,
  regulatorSchema,
} from "../../../contract";
import { creditTypesOfCourse } from "../../catalogue";
import type { Executor } from "../../db/client";
import { identifiersOf } from "../identifiers/identifiers.read-model";
import { creditTypeRegulators } from "./reporting.table";

/** The regulators each credit type reports to, by type id (types reporting nowhere are absent). */
export async function regulatorsOfTypes(
  db: Executor,
  creditTypeIds: string[],
): Promise<Map<string, RegulatorActivity[]>> {
  const byType = new Map<string, RegulatorActivity[]>();
  if (!creditTypeIds.length) return byType;
  const rows = await db
    .select()
    .from(creditTypeRegulators)
    .where(inArray(creditTypeRegulators.creditTypeId, creditTypeIds))
    .orderBy(asc(creditTypeRegulators.creditTypeId), asc(creditTypeRegulators.regulator));
  for (const row of rows) {
    const entry: RegulatorActivity = {
      regulator: regulatorSchema.parse(row.regulator),
      activityId: row.activityId,
      providerId: row.providerId,
      activityFormat: row.activityFormat,
      providership: row.providership,
      commercialSupport: row.commercialSupport,
      details: { ...EMPTY_ACTIVITY_DETAILS, ...row.details },
    };
    byType.set(row.creditTypeId, [...(byType.get(row.creditTypeId) ?? []), entry]);
  }
  return byType;
}

/** The course's credit types with the regulators each reports to. */
export async function courseReportingOf(db: Executor, courseId: string): Promise<CourseReporting> {
  const types = await creditTypesOfCourse(db, courseId);
  const regulators = await regulatorsOfTypes(
    db,
    types.map((t) => t.id),
  );
  return {
    courseId,
    types: types.map((t) => ({
      creditTypeId: t.id,
      name: t.name,
      amount: t.amount,
      regulators: regulators.get(t.id) ?? [],
    })),
  };
}

/** The regulators a course reports to, in their fixed order. */
export const regulatorsOfCourse = (reporting: CourseReporting): Regulator[] =>
  REGULATORS.filter((regulator) =>
    reporting.types.some((t) => t.regulators.some((r) => r.regulator === regulator)),
  );

/**
 * What a claim of each given credit type keeps for its regulators: the regulators the type
 * reports to and the learner's identifiers now (in `db`, the attestation's transaction, which
 * may just have saved some). `missing` names each regulator whose
 * identifiers the learner has not given (a claim of its type must wait for them).
 */
export async function claimRegulatorIds(
  db: Executor,
  userId: string,
  creditTypeIds: string[],
): Promise<{
  byType: Map<string, ClaimRegulatorIds>;
  missing: { regulator: Regulator; missing: string[] }[];
}> {
  const regulators = await regulatorsOfTypes(db, creditTypeIds);
  const byType = new Map<string, ClaimRegulatorIds>();
  if (!regulators.size) return { byType, missing: [] };
  const ids = regulatorIdsOf(await identifiersOf(db, userId));
  const needed = new Set<Regulator>();
  for (const [typeId, list] of regulators) {
    const names = list.map((r) => r.regulator);
    for (const name of names) needed.add(name);
    byType.set(typeId, { regulators: names, ids });
  }
  const missing = [...needed]
    .map((regulator) => ({ regulator, missing: missingRegulatorIds(regulator, ids) }))
    .filter((m) => m.missing.length);
  return { byType, missing };
}
