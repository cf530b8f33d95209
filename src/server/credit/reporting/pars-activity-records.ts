import type { CourseReporting } from "../../../contract";
import type { Executor } from "../../db/client";
import { loadActivity } from "../activity/activity.read-model";
import type { ParsActivityRecord } from "./pars-activity-file";
import { createReportingRepository } from "./reporting.repository";

/**
 * The course's PARS activity records, one per credit type reporting to PARS: its title, the
 * activity's release and expiration dates (PARS's start and end dates; ACCME reports an
 * enduring material once, from the day it is first available to its expiration), the credit
 * designated, what the administrator said of the activity, and its learners. A learner is a
 * completion (a valid certificate) in the range: a physician when they claimed this type,
 * another learner otherwise. Without a range, from the start date to today (its first day,
 * for an activity not yet released); the range counted is answered with the records.
 */
export async function parsActivityRecords(
  db: Executor,
  input: {
    course: { id: string; title: string };
    reporting: CourseReporting;
    range: { from: string; to: string } | null;
    today: string;
  },
): Promise<{ records: ParsActivityRecord[]; range: { from: string; to: string } }> {
  const { course, reporting } = input;
  const activity = await loadActivity(db, course.id);
  const startDate = activity?.releaseDate ?? null;
  const endDate = activity?.expirationDate ?? null;
  const types = reporting.types.flatMap((t) => {
    const pars = t.regulators.find((r) => r.regulator === "pars");
    return pars ? [{ type: t, pars }] : [];
  });
  const from = startDate ?? input.today;
  // ISO dates order as text: the later of the start and today.
  const range = input.range ?? { from, to: [from, input.today].sort()[1]! };
  const counts = await createReportingRepository(db).completionCounts(
    course.id,
    types.map((t) => t.type.creditTypeId),
    range,
  );
  const records = types.map(({ type, pars }) => {
    const physicians = counts.byType.get(type.creditTypeId) ?? 0;
    return {
      creditTypeId: type.creditTypeId,
      creditName: type.name,
      activityId: pars.activityId,
      title: course.title,
      activityFormat: pars.activityFormat,
      providership: pars.providership,
      commercialSupport: pars.commercialSupport,
      details: pars.details,
      startDate,
      endDate,
      credits: type.amount,
      physicians,
      otherLearners: Math.max(0, counts.total - physicians),
    };
  });
  return { records, range };
}
