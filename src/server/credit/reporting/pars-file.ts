import {
  isValidParsActivityId,
  missingRegulatorIds,
  REGULATOR_NAMES,
  tabRow,
} from "../../../contract";
import {
  decimal,
  isLatin1,
  type ReportableClaim,
  type ReportFormat,
  usDate,
} from "./report-format";

/**
 * The columns of the PARS learner upload, in order: ACCME's learner completion template
 * ("PARS Tab Delimited Participant Upload Instructions – Learner Template B"; "Excel Template
 * Instructions for Submitting Learner Completion Data") with the learner record the ACCME
 * CME credit reporting checklist asks providers to collect: name, month and day of birth
 * (no year), the state of licensure and state licence ID, or for MOC the certifying board
 * and the diplomate's board ID. docs/reporting.md cites each source.
 */
const PARS_LEARNER_COLUMNS = [
  "PARS Activity ID",
  "Learner First Name",
  "Learner Last Name",
  "Date of Birth Month",
  "Date of Birth Day",
  "State of Licensure",
  "State License ID",
  "Certifying Board",
  "Board ID",
  "NPI",
  "Completion Date",
  "CME Credits",
] as const;

const pad = (n: number | null) => (n === null ? "" : String(n).padStart(2, "0"));

/**
 * ACCME's PARS learner upload: a tab-delimited text file as Excel saves the learner template
 * ("Text (Tab delimited)"): no header row (the template's header is removed before saving),
 * every column present on every row even when empty, CRLF line ends, text in ISO-8859-1.
 * Dates are MM/DD/YYYY, the month and day of birth two digits each, credits a plain decimal.
 */
export const parsFile: ReportFormat = {
  regulator: "pars",
  fileNamePrefix: "pars-learners",
  extension: "txt",
  contentType: "text/plain; charset=iso-8859-1",

  refusal(claim: ReportableClaim) {
    if (!isValidParsActivityId(claim.activity.activityId)) {
      return "The credit type has no PARS activity ID.";
    }
    if (!claim.ids) {
      return `The learner claimed this credit before it reported to ${REGULATOR_NAMES.pars}: no identifiers were given with the claim.`;
    }
    const missing = missingRegulatorIds("pars", claim.ids);
    if (missing.length) return `Missing from the claim: ${missing.join(", ")}.`;
    const text = [claim.ids.firstName, claim.ids.lastName, claim.ids.licenceNumber].join("");
    if (!isLatin1(text)) {
      return "PARS reads Latin-1 text: the name or licence holds letters it cannot store.";
    }
    if (!(claim.amount > 0)) return "The claim has no credit to report.";
    return null;
  },

  values(claim: ReportableClaim) {
    const ids = claim.ids!;
    const row: Record<(typeof PARS_LEARNER_COLUMNS)[number], string> = {
      "PARS Activity ID": claim.activity.activityId,
      "Learner First Name": ids.firstName,
      "Learner Last Name": ids.lastName,
      "Date of Birth Month": pad(ids.birthMonth),
      "Date of Birth Day": pad(ids.birthDay),
      "State of Licensure": ids.licenceState,
      "State License ID": ids.licenceNumber,
      "Certifying Board": ids.certifyingBoard,
      "Board ID": ids.boardId,
      NPI: ids.npi,
      "Completion Date": usDate(claim.completedAt),
      "CME Credits": decimal(claim.amount),
    };
    return PARS_LEARNER_COLUMNS.map((column) => row[column]);
  },

  write(claims: ReportableClaim[]) {
    const text = claims.map((c) => tabRow(parsFile.values(c))).join("");
    return Buffer.from(text, "latin1");
  },
};
