import { z } from "zod";
import { calendarDateSchema, DATE_RANGE_REVERSED } from "./dates";

/** The regulators Credo reports credit to (reporting.ts says what each needs). */
export const REGULATORS = ["pars", "ce_broker", "cpe_monitor"] as const;
export const regulatorSchema = z.enum(REGULATORS);
export type Regulator = z.infer<typeof regulatorSchema>;

/**
 * The PARS activity record: what ACCME asks of each accredited activity besides its learners
 * (title, format, dates, the AMA PRA Category 1 credit designated, providership, commercial
 * support and the count of physicians and other learners). Credo holds the course's title,
 * dates and credit; the administrator says its format, providership and commercial support
 * where the course's PARS activity ID is set.
 */

/**
 * The PARS activity formats a Credo course can be: on demand, or online at a set time. The
 * in-person formats (course, regularly scheduled series) need a location Credo does not hold.
 * Each is written with the code PARS uploads use for it.
 */
export const PARS_ACTIVITY_FORMATS = ["IEM", "EM", "IL"] as const;
export type ParsActivityFormat = (typeof PARS_ACTIVITY_FORMATS)[number];
export const PARS_ACTIVITY_FORMAT_LABELS: Record<ParsActivityFormat, string> = {
  IEM: "Internet enduring material",
  EM: "Enduring material",
  IL: "Internet live course",
};

/** Direct: planned by the accredited provider alone; joint: with a non-accredited organisation. */
export const PROVIDERSHIPS = ["direct", "joint"] as const;
export type Providership = (typeof PROVIDERSHIPS)[number];
export const PROVIDERSHIP_LABELS: Record<Providership, string> = {
  direct: "Direct",
  joint: "Joint",
};

/** The activity record's settings of a credit type reporting to PARS ("" / null until set). */
export interface ParsActivitySettings {
  activityFormat: string;
  providership: string;
  commercialSupport: boolean | null;
}

/** What the PARS activity record still needs of the administrator, in words. */
export function missingParsActivitySettings(s: ParsActivitySettings): string[] {
  const missing: string[] = [];
  if (!s.activityFormat) missing.push("activity format");
  if (!s.providership) missing.push("providership");
  if (s.commercialSupport === null) missing.push("whether commercial support was received");
  return missing;
}

/**
 * POST /api/admin/reports/regulators/pars/activity-files: the course's activity record. The
 * learner counts are of completions in the range (whole UTC days); without one, from the
 * activity's start date to today.
 */
export const parsActivityFileBodySchema = z
  .strictObject({
    courseId: z.string().min(1).max(64),
    from: calendarDateSchema.optional(),
    to: calendarDateSchema.optional(),
  })
  .refine((b) => (b.from === undefined) === (b.to === undefined), {
    path: ["to"],
    message: "Give both ends of the range, or neither",
  })
  .refine((b) => !b.from || !b.to || b.from <= b.to, {
    path: ["to"],
    message: DATE_RANGE_REVERSED,
  });
export type ParsActivityFileBody = z.infer<typeof parsActivityFileBodySchema>;

/** What a report file holds: learners' completions, or (PARS) the activity record. */
export const REPORT_FILE_KINDS = ["learners", "activities"] as const;
export type ReportFileKind = (typeof REPORT_FILE_KINDS)[number];
export const REPORT_FILE_KIND_LABELS: Record<ReportFileKind, string> = {
  learners: "Learner completions",
  activities: "Activity record",
};

export const PARS_ACTIVITY_MESSAGES = {
  incomplete: (reasons: string[]) =>
    `The PARS activity record cannot be written: ${reasons.join(" ")}`,
} as const;
