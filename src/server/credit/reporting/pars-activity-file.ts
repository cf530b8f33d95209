import {
  type ActivityDetails,
  isValidParsActivityId,
  missingParsActivitySettings,
  PARS_COMPETENCIES,
  PARS_LIVE_FORMATS,
  PROVIDERSHIP_LABELS,
  type Providership,
  tabRow,
} from "../../../contract";
import { decimal, isLatin1 } from "./report-format";

/** One activity record of a course: a credit type reporting to PARS, with its counts. */
export interface ParsActivityRecord {
  creditTypeId: string;
  creditName: string;
  /** The PARS activity ID ("" until known). */
  activityId: string;
  title: string;
  /** PARS_ACTIVITY_FORMATS' code; "" until set. */
  activityFormat: string;
  /** "direct" or "joint"; "" until set. */
  providership: string;
  commercialSupport: boolean | null;
  /** The provider activity ID, location, competencies and supporters. */
  details: ActivityDetails;
  /** The activity's release and expiration dates (YYYY-MM-DD), PARS's start and end dates. */
  startDate: string | null;
  endDate: string | null;
  /** The AMA PRA Category 1 credit the type designates. */
  credits: number;
  /** Learners who completed in the range and claimed this type; every other completion. */
  physicians: number;
  otherLearners: number;
}

/**
 * The fields of ACCME's tab-delimited activity template ("Template D", reporting year 2015 and
 * later), in order, as the University of Cincinnati's PARS serializer (`accme_lib`,
 * lib/accme_lib/pars/serializer.rb) writes them; after them, SUPPORTER_FIELDS once per
 * commercial supporter. docs/reporting.md cites the sources and what to confirm with ACCME.
 */
const PARS_ACTIVITY_FIELDS = [
  "Template",
  "ACCME Activity ID",
  "Provider Activity ID",
  "Reporting Year",
  "Activity Title",
  "Activity Date",
  "City",
  "State",
  "Country",
  "Providership",
  "Activity Type",
  "Hours of Instruction",
  "# of Physicians",
  "# of Other Learners",
  "Commercial Support Received?",
  "Designed to change Competence?",
  "Changes in Competence evaluated?",
  "Designed to change Performance?",
  "Changes in Performance evaluated?",
  "Designed to change Patient Outcomes?",
  "Changes in Patient Outcomes evaluated?",
  "Sub-category: Case based discussion",
  "Sub-category: Lecture",
  "Sub-category: Panel",
  "Sub-category: Simulation",
  "Sub-category: Skill-based training",
  "Sub-category: Small group discussion",
  "Sub-category: Other",
  "Joint Provider(s)",
  "Number of AMA PRA Category 1 Credits Designated",
  "Description of Content",
  ...PARS_COMPETENCIES,
] as const;

/** The fields of one commercial supporter, repeated per supporter after the activity's. */
const SUPPORTER_FIELDS = [
  "Commercial Support Source",
  "Monetary Amount Received (for Support Source)",
  "In Kind Support Received - Durable equipment?",
  "In Kind Support Received - Facilities / Space?",
  "In Kind Support Received - Disposable supplies (Non-biological)?",
  "In Kind Support Received - Animal parts or tissue?",
  "In Kind Support Received - Human parts or tissue?",
  "In Kind Support Received - Other?",
] as const;

/** The template's name for reporting year 2015 and later. */
const TEMPLATE = "Template D";

/** A calendar day YYYY-MM-DD as MM/DD/YYYY, as the PARS uploads write dates. */
const usDay = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;
const yesNo = (value: boolean) => (value ? "Yes" : "No");

/**
 * ACCME's PARS activity upload: the activity template saved as tab-delimited text, no header
 * row, every field of the template on every record (blank where Credo holds no value), CRLF
 * line ends, ISO-8859-1 text. The Provider Activity ID is the key PARS updates an activity
 * by. A record always carries one supporter's fields (blank without commercial support), so
 * it has at least the fields ACCME requires, and one set per supporter after.
 */
export const parsActivityFile = {
  fileNamePrefix: "pars-activity",
  extension: "txt",
  contentType: "text/plain; charset=iso-8859-1",

  /** Why the record cannot be written; null when it can. Every missing value is named. */
  refusal(record: ParsActivityRecord): string | null {
    if (!isValidParsActivityId(record.activityId)) {
      return "The credit type has no PARS activity ID.";
    }
    const missing = missingParsActivitySettings(record);
    if (!record.startDate) missing.push("release date (the activity's date)");
    if (!(record.credits > 0)) missing.push("AMA PRA Category 1 credit");
    if (missing.length) return `Missing from the activity record: ${missing.join(", ")}.`;
    const text = [
      record.title,
      record.details.city,
      ...record.details.supporters.map((s) => s.source),
    ];
    if (!isLatin1(text.join(""))) {
      return "PARS reads Latin-1 text: the title, city or a supporter's name holds letters it cannot store.";
    }
    return null;
  },

  values(record: ParsActivityRecord): string[] {
    const d = record.details;
    const live = PARS_LIVE_FORMATS.includes(record.activityFormat);
    const competencies = new Set<string>(d.competencies);
    const row: Partial<Record<(typeof PARS_ACTIVITY_FIELDS)[number], string>> = {
      Template: TEMPLATE,
      "ACCME Activity ID": record.activityId,
      "Provider Activity ID": d.providerCode,
      "Reporting Year": record.startDate?.slice(0, 4) ?? "",
      "Activity Title": record.title,
      "Activity Date": record.startDate ? usDay(record.startDate) : "",
      City: live ? d.city : "",
      State: live ? d.state : "",
      Country: live ? d.country : "",
      Providership: PROVIDERSHIP_LABELS[record.providership as Providership] ?? "",
      "Activity Type": record.activityFormat,
      "Hours of Instruction": decimal(record.credits),
      "# of Physicians": String(record.physicians),
      "# of Other Learners": String(record.otherLearners),
      "Commercial Support Received?": yesNo(Boolean(record.commercialSupport)),
      "Number of AMA PRA Category 1 Credits Designated": decimal(record.credits),
    };
    // Competencies are answered Yes/No once any is chosen; left blank until then.
    if (competencies.size) {
      for (const c of PARS_COMPETENCIES) row[c] = yesNo(competencies.has(c));
    }
    const supporters = record.commercialSupport ? d.supporters : [];
    const supporterFields = (supporters.length ? supporters : [null]).flatMap((s) =>
      SUPPORTER_FIELDS.map((_, i) => {
        if (!s) return "";
        if (i === 0) return s.source;
        if (i === 1) return decimal(s.amount);
        return "";
      }),
    );
    return [...PARS_ACTIVITY_FIELDS.map((field) => row[field] ?? ""), ...supporterFields];
  },

  /** The file of these records (each accepted by `refusal`). */
  write(records: ParsActivityRecord[]): Buffer {
    const text = records.map((r) => tabRow(parsActivityFile.values(r))).join("");
    return Buffer.from(text, "latin1");
  },
};
