import { parse } from "csv-parse/sync";
import {
  MAX_IMPORT_ROWS,
  OPTION_LETTERS,
  type QuestionBody,
  questionBodySchema,
} from "../../../contract";
import { unreadableCsvMessage } from "../../lib/csv";

export interface ImportRow {
  line: number;
  question: (QuestionBody & { moduleId: string | null }) | null;
  errors: string[];
}

/** The course's modules, for naming a review question's module by title or id. */
type ModuleRef = { id: string; title: string };

/**
 * Reads a question file (columns QUESTION_CSV_COLUMNS, header first; option and feedback
 * columns may stop before H) into one checked question per row, with every problem of a
 * row named, so an administrator fixes the file before anything is saved.
 */
export function parseQuestionCsv(text: string, modules: ModuleRef[]): ImportRow[] {
  let records: Record<string, string>[];
  try {
    records = parse(text.replace(/^\uFEFF/, ""), {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    });
  } catch (error) {
    return [{ line: 1, question: null, errors: [unreadableCsvMessage(error)] }];
  }
  if (records.length > MAX_IMPORT_ROWS) {
    return [
      {
        line: 1,
        question: null,
        errors: [`At most ${MAX_IMPORT_ROWS} rows can be imported at once`],
      },
    ];
  }
  const firstColumns = Object.keys(records[0] ?? {});
  const missing = ["pool", "kind", "question", "option_a", "option_b", "correct"].filter(
    (c) => records.length && !firstColumns.includes(c),
  );
  if (missing.length) {
    return [{ line: 1, question: null, errors: [`Missing columns: ${missing.join(", ")}`] }];
  }
  return records.map((record, i) => readRow(record, i + 2, modules));
}

function readRow(record: Record<string, string>, line: number, modules: ModuleRef[]): ImportRow {
  const errors: string[] = [];
  const cell = (name: string) => (record[name] ?? "").trim();
  const correctLetters = new Set(
    cell("correct")
      .toUpperCase()
      .split(/[\s,;|]+/)
      .filter(Boolean),
  );
  for (const letter of correctLetters) {
    if (!(OPTION_LETTERS as readonly string[]).includes(letter)) {
      errors.push(`correct: "${letter}" is not an option letter (A to H)`);
    }
  }
  const options = OPTION_LETTERS.flatMap((letter) => {
    const text = cell(`option_${letter.toLowerCase()}`);
    if (!text) return [];
    return [
      {
        text,
        correct: correctLetters.has(letter),
        feedback: cell(`feedback_${letter.toLowerCase()}`) || null,
      },
    ];
  });
  const moduleName = cell("module");
  let moduleId: string | null = null;
  if (moduleName) {
    const module =
      modules.find((m) => m.id === moduleName) ??
      modules.find((m) => m.title.trim().toLowerCase() === moduleName.toLowerCase());
    if (module) moduleId = module.id;
    else errors.push(`module: no module of this course is called "${moduleName}"`);
  }
  const parsed = questionBodySchema.safeParse({
    pool: cell("pool").toLowerCase(),
    moduleId,
    kind: cell("kind")
      .toLowerCase()
      .replace(/[\s/-]+/g, "_"),
    text: cell("question"),
    options,
    explanation: cell("explanation") || null,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // A module that was named but not found is already reported above.
      if (issue.path[0] === "moduleId" && moduleName) continue;
      const field = issue.path[0] === "text" ? "question" : String(issue.path[0] ?? "row");
      errors.push(`${field}: ${issue.message}`);
    }
  }
  const question =
    parsed.success && !errors.length
      ? { ...parsed.data, moduleId: parsed.data.moduleId ?? null }
      : null;
  return { line, question, errors };
}
