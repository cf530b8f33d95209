import { parse } from "csv-parse/sync";
import { LEARNER_IMPORT_MAX_ROWS } from "../../../contract";
import { unreadableCsvMessage } from "../../lib/csv";
import { AppError } from "../../plugins/errors";
import { learnerFileInvalid } from "./learners.errors";

/** A row of a learners file: its cells as written, trimmed. */
export interface LearnerCsvRecord {
  /** The line the row ends on (the header is line 1). */
  line: number;
  name: string;
  email: string;
  phone: string;
  courses: string;
}

/** The columns a learners file must have; phone and courses may be left out. */
const REQUIRED_COLUMNS = ["name", "email"];
const KNOWN_COLUMNS = [...REQUIRED_COLUMNS, "phone", "courses"];

/**
 * The header's column names. A column named twice is refused: which of its two cells
 * an administrator meant cannot be guessed, and taking either would import a wrong value.
 */
function columnNames(header: string[]) {
  const names = header.map((h) => h.trim().toLowerCase());
  const twice = KNOWN_COLUMNS.find((c) => names.indexOf(c) !== names.lastIndexOf(c));
  if (twice) throw learnerFileInvalid(`The header names the column ${twice} twice: keep one.`);
  return names;
}

/**
 * Reads a learners file: a header naming the columns (any order, any case), then one
 * learner per row. A file that cannot be read as a whole (not CSV, no header, too many
 * rows) is refused with the reason; problems of single rows are the checks' business.
 */
export function parseLearnerCsv(text: string): LearnerCsvRecord[] {
  let parsed: { record: Record<string, string>; info: { lines: number } }[];
  try {
    parsed = parse(text.replace(/^\uFEFF/, ""), {
      columns: columnNames,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      // One row past the limit is enough to know the file is too long.
      to: LEARNER_IMPORT_MAX_ROWS + 1,
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw learnerFileInvalid(unreadableCsvMessage(error));
  }
  if (parsed.length > LEARNER_IMPORT_MAX_ROWS) {
    throw learnerFileInvalid(
      `The file has more than ${LEARNER_IMPORT_MAX_ROWS.toLocaleString("en-US")} learners: split it into smaller files.`,
    );
  }
  if (parsed.length === 0) throw learnerFileInvalid("The file has no learners under its header.");
  const columns = Object.keys(parsed[0]?.record ?? {});
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw learnerFileInvalid(
      `The header must name the columns name, email, phone and courses; missing: ${missing.join(", ")}.`,
    );
  }
  return parsed.map(({ record, info }) => ({
    line: info.lines,
    name: record.name ?? "",
    email: record.email ?? "",
    phone: record.phone ?? "",
    courses: record.courses ?? "",
  }));
}

/** The course names or ids of a courses cell: separated by ";" or "|". */
export const courseNamesIn = (cell: string) =>
  cell
    .split(/[;|]/)
    .map((name) => name.trim())
    .filter(Boolean);
