import ExcelJS from "exceljs";
import {
  formulaSafe,
  isValidParsActivityId,
  missingRegulatorIds,
  REGULATOR_NAMES,
  US_STATE_NAMES,
} from "../../../contract";
import {
  decimal,
  type ReportableClaim,
  type ReportFormat,
  type ReportRow,
  usDate,
} from "./report-format";

/**
 * The columns of ACCME's Excel learner template (917_20240125_Learner_Excel_CME_MOC_Template,
 * "Excel Template Instructions for Submitting Learner Completion Data", November 2025), in
 * order: the header row as the template writes it, "Credit Type " with its trailing space.
 * One row carries a learner's CME and, for an activity registered for MOC, the board credit.
 * docs/reporting.md cites the source and what to confirm with ACCME.
 */
const PARS_LEARNER_COLUMNS = [
  "Record Action",
  "ACCME Activity ID",
  "Completion Date",
  "First Name",
  "Last Name",
  "Date of Birth",
  "Licensing State",
  "Licensing ID or NPI",
  "Number of CME Credits",
  "Certifying Board",
  "Certifying Board ID",
  "Total Board Credits",
  "Credit Type ",
  "Credits Awarded for Credit Type",
  "Additional Credit Type",
] as const;

/** The template's row 1, above the header: how the file was made and what PARS does with it. */
const GUIDANCE =
  "ACCME PARS learner completions, in the Excel learner template: the header is row 2; each row below adds (Add) or deletes (Delete) one learner's completion of one activity.";

/** Columns written as numbers and as a date; every other cell is text, as typed in the template. */
const NUMBER_COLUMNS = new Set([
  "Number of CME Credits",
  "Total Board Credits",
  "Credits Awarded for Credit Type",
]);
const DATE_COLUMN = "Completion Date";

const pad = (n: number | null) => (n === null ? "" : String(n).padStart(2, "0"));

/** Whether the claim carries MOC: the course reports MOC to the board the learner is certified by. */
const reportsMoc = (claim: ReportableClaim) =>
  Boolean(
    claim.activity.details.mocBoard &&
      claim.ids?.boardId &&
      claim.ids.certifyingBoard === claim.activity.details.mocBoard,
  );

/** MM/DD/YYYY as the day it names, at midnight UTC (the cell's date, whatever the zone). */
const dayOf = (us: string) =>
  new Date(Date.UTC(Number(us.slice(6, 10)), Number(us.slice(0, 2)) - 1, Number(us.slice(3, 5))));

/**
 * ACCME's PARS learner upload: the Excel learner template (.xlsx), row 1 guidance, row 2 the
 * header, then one row per learner and credit. The Record Action is Add for a completion,
 * Delete for one withdrawn (a claim whose certificate is no longer valid, or the earlier row
 * of a claim that changed, followed by its Add). The completion date is a date cell, the
 * birth date MM/DD, the licensing state its name, and the state licence ID, else the NPI,
 * in the one column; the MOC columns hold the course's board and credit type with the
 * learner's board ID when the course reports MOC to the learner's board.
 */
export const parsFile: ReportFormat = {
  regulator: "pars",
  fileNamePrefix: "pars-learners",
  extension: "xlsx",
  contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  withdraws: true,

  refusal(claim: ReportableClaim) {
    if (!isValidParsActivityId(claim.activity.activityId)) {
      return "The credit type has no PARS activity ID.";
    }
    if (!claim.ids) {
      return `The learner claimed this credit before it reported to ${REGULATOR_NAMES.pars}: no identifiers were given with the claim.`;
    }
    const missing = missingRegulatorIds("pars", claim.ids);
    if (missing.length) return `Missing from the claim: ${missing.join(", ")}.`;
    const licence = Boolean(claim.ids.licenceState && claim.ids.licenceNumber);
    if (!licence && !claim.ids.npi && !reportsMoc(claim)) {
      return `The learner gave a ${claim.ids.certifyingBoard} board ID but no state licence or NPI, and this activity reports no MOC to ${claim.ids.certifyingBoard}.`;
    }
    if (!(claim.amount > 0)) return "The claim has no credit to report.";
    return null;
  },

  values(claim: ReportableClaim) {
    const ids = claim.ids!;
    const licence = Boolean(ids.licenceState && ids.licenceNumber);
    const moc = reportsMoc(claim);
    const credits = decimal(claim.amount);
    const row: Record<(typeof PARS_LEARNER_COLUMNS)[number], string> = {
      "Record Action": "",
      "ACCME Activity ID": claim.activity.activityId,
      "Completion Date": usDate(claim.completedAt),
      "First Name": ids.firstName,
      "Last Name": ids.lastName,
      "Date of Birth": `${pad(ids.birthMonth)}/${pad(ids.birthDay)}`,
      "Licensing State": licence ? (US_STATE_NAMES[ids.licenceState] ?? ids.licenceState) : "",
      "Licensing ID or NPI": licence ? ids.licenceNumber : ids.npi,
      "Number of CME Credits": credits,
      "Certifying Board": moc ? ids.certifyingBoard : "",
      "Certifying Board ID": moc ? ids.boardId : "",
      "Total Board Credits": moc ? credits : "",
      "Credit Type ": moc ? claim.activity.details.mocCreditType : "",
      "Credits Awarded for Credit Type": moc ? credits : "",
      "Additional Credit Type": "",
    };
    // The record action is the row's, not the claim's: the fingerprint leaves it out.
    return PARS_LEARNER_COLUMNS.slice(1).map((column) => row[column]);
  },

  async write(rows: ReportRow[]) {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Sheet1");
    sheet.addRow([GUIDANCE]);
    sheet.addRow([...PARS_LEARNER_COLUMNS]);
    for (const { action, values } of rows) {
      const cells = [action === "add" ? "Add" : "Delete", ...values].map((value, i) => {
        const column = PARS_LEARNER_COLUMNS[i]!;
        if (value === "") return null;
        if (column === DATE_COLUMN) return dayOf(value);
        if (NUMBER_COLUMNS.has(column)) return Number(value);
        return formulaSafe(value);
      });
      const row = sheet.addRow(cells);
      row.getCell(PARS_LEARNER_COLUMNS.indexOf(DATE_COLUMN) + 1).numFmt = "mm/dd/yyyy";
    }
    return Buffer.from(await workbook.xlsx.writeBuffer());
  },
};
