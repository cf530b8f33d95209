import { z } from "zod";
import { calendarDateSchema, DATE_RANGE_REVERSED } from "./dates";

/** The regulators Credo reports credit to (regulator-ids.ts says what each needs of a learner). */
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
 * The PARS activity types a Credo course can be, each written with the code the PARS activity
 * template takes (ACCME's activity template, as the University of Cincinnati's PARS serializer
 * lists the codes): on demand, online at a set time, or held in person as a course or a
 * regularly scheduled series, which the template locates by city, state and country.
 */
export const PARS_ACTIVITY_FORMATS = ["IEM", "EM", "IL", "C", "RSS"] as const;
export type ParsActivityFormat = (typeof PARS_ACTIVITY_FORMATS)[number];
export const PARS_ACTIVITY_FORMAT_LABELS: Record<ParsActivityFormat, string> = {
  IEM: "Internet enduring material",
  EM: "Enduring material",
  IL: "Internet live course",
  C: "Course (in person)",
  RSS: "Regularly scheduled series",
};
/** The activity types held at a place: the template asks their city, state and country. */
export const PARS_LIVE_FORMATS: readonly string[] = ["C", "RSS"];

/**
 * The competencies the PARS activity template asks about, one Yes/No column each, in the
 * template's order: the ABMS/ACGME competencies, the Institute of Medicine's and the
 * Interprofessional Education Collaborative's, and other competencies.
 */
export const PARS_COMPETENCIES = [
  "ABMS/ACGME - Patient Care and Procedural Skills",
  "ABMS/ACGME - Medical Knowledge",
  "ABMS/ACGME - Practice-based Learning and Improvement",
  "ABMS/ACGME - Interpersonal and Communication Skills",
  "ABMS/ACGME - Professionalism",
  "ABMS/ACGME - Systems-based Practice",
  "Institute of Medicine - Provide patient-centered care",
  "Institute of Medicine - Work in interdisciplinary teams",
  "Institute of Medicine - Employ evidence-based practice",
  "Institute of Medicine - Apply quality improvement",
  "Institute of Medicine - Utilize informatics",
  "Interprofessional Education Collaborative - Values/Ethics for Interprofessional Practice",
  "Interprofessional Education Collaborative - Roles/Responsibilities",
  "Interprofessional Education Collaborative - Interprofessional Communication",
  "Interprofessional Education Collaborative - Teams and Teamwork",
  "Other Competencies - Competencies other than those listed were addressed",
] as const;
export type ParsCompetency = (typeof PARS_COMPETENCIES)[number];

/** Direct: planned by the accredited provider alone; joint: with a non-accredited organisation. */
export const PROVIDERSHIPS = ["direct", "joint"] as const;
export type Providership = (typeof PROVIDERSHIPS)[number];
export const PROVIDERSHIP_LABELS: Record<Providership, string> = {
  direct: "Direct",
  joint: "Joint",
};

/** A commercial supporter of the activity and the money it gave (in US dollars). */
export interface ParsSupporter {
  source: string;
  amount: number;
}

/** The activity record's settings of a credit type reporting to PARS ("" / null until set). */
export interface ParsActivitySettings {
  activityFormat: string;
  providership: string;
  commercialSupport: boolean | null;
  details: {
    providerCode: string;
    city: string;
    state: string;
    country: string;
    supporters: ParsSupporter[];
  };
}

/** What the PARS activity record still needs of the administrator, in words. */
export function missingParsActivitySettings(s: ParsActivitySettings): string[] {
  const missing: string[] = [];
  if (!s.details.providerCode) missing.push("provider activity ID");
  if (!s.activityFormat) missing.push("activity type");
  if (PARS_LIVE_FORMATS.includes(s.activityFormat)) {
    if (!s.details.city) missing.push("city");
    if (!s.details.country) missing.push("country");
    if (s.details.country === "USA" && !s.details.state) missing.push("state");
  }
  if (!s.providership) missing.push("providership");
  if (s.commercialSupport === null) missing.push("whether commercial support was received");
  if (s.commercialSupport && !s.details.supporters.length) missing.push("commercial supporters");
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
