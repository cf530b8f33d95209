import {
  isValidParsActivityId,
  missingParsActivitySettings,
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
 * The columns of the PARS activity upload, in order: the fields ACCME lists for an activity
 * record in PARS ("What activity data are providers required to enter into PARS?"): title,
 * format, start and end dates, the AMA PRA Category 1 credit designated, providership,
 * whether commercial support was received and the counts of physicians and other learners,
 * with the PARS activity ID first, as the learner upload identifies its activity.
 * docs/reporting.md cites each source.
 */
const PARS_ACTIVITY_COLUMNS = [
  "PARS Activity ID",
  "Activity Title",
  "Activity Format",
  "Start Date",
  "End Date",
  "AMA PRA Category 1 Credits",
  "Providership",
  "Commercial Support Received",
  "Physician Learners",
  "Other Learners",
] as const;

/** A calendar day YYYY-MM-DD as MM/DD/YYYY, as the PARS uploads write dates. */
const usDay = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

/**
 * ACCME's PARS activity upload, written like the learner upload: tab-delimited text as Excel
 * saves it, no header row, every column on every row, CRLF line ends, ISO-8859-1 text; dates
 * MM/DD/YYYY, providership Direct or Joint, commercial support Yes or No, counts as whole
 * numbers (0 when none).
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
    if (!record.startDate) missing.push("release date (the activity's start date)");
    if (!record.endDate) missing.push("expiration date (the activity's end date)");
    if (!(record.credits > 0)) missing.push("AMA PRA Category 1 credit");
    if (missing.length) return `Missing from the activity record: ${missing.join(", ")}.`;
    if (!isLatin1(record.title)) {
      return "PARS reads Latin-1 text: the course title holds letters it cannot store.";
    }
    return null;
  },

  values(record: ParsActivityRecord): string[] {
    const row: Record<(typeof PARS_ACTIVITY_COLUMNS)[number], string> = {
      "PARS Activity ID": record.activityId,
      "Activity Title": record.title,
      "Activity Format": record.activityFormat,
      "Start Date": record.startDate ? usDay(record.startDate) : "",
      "End Date": record.endDate ? usDay(record.endDate) : "",
      "AMA PRA Category 1 Credits": decimal(record.credits),
      Providership: PROVIDERSHIP_LABELS[record.providership as Providership] ?? "",
      "Commercial Support Received": record.commercialSupport ? "Yes" : "No",
      "Physician Learners": String(record.physicians),
      "Other Learners": String(record.otherLearners),
    };
    return PARS_ACTIVITY_COLUMNS.map((column) => row[column]);
  },

  /** The file of these records (each accepted by `refusal`). */
  write(records: ParsActivityRecord[]): Buffer {
    const text = records.map((r) => tabRow(parsActivityFile.values(r))).join("");
    return Buffer.from(text, "latin1");
  },
};
