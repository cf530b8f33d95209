import { type Course, csvRow, formulaSafe, QUESTION_CSV_COLUMNS } from "@contract";

type TemplateRow = Partial<Record<(typeof QUESTION_CSV_COLUMNS)[number], string>>;

/**
 * How the template names a module: by its title, which the import matches, unless the CSV
 * writer has to mark the title against spreadsheet formulas (the marked title would no
 * longer match); then by its id, which the import matches too.
 */
const moduleCell = (module: { id: string; title: string }) =>
  formulaSafe(module.title) === module.title ? module.title : module.id;

/**
 * A question file with the header and one example of each kind of row, for the course's own
 * modules, written by the portal's one CSV writer.
 */
export function questionTemplateCsv(course: Course): string {
  const row = (cells: TemplateRow) => csvRow(QUESTION_CSV_COLUMNS.map((c) => cells[c] ?? ""));
  const firstModule = course.modules[0];
  return [
    csvRow(QUESTION_CSV_COLUMNS),
    row({
      pool: "final",
      kind: "single",
      question: "Which statement is true?",
      option_a: "The first answer",
      option_b: "The right answer",
      option_c: "Another answer",
      correct: "B",
      explanation: "Why B is right.",
    }),
    row({
      pool: "final",
      kind: "multiple",
      question: "Which two statements are true?",
      option_a: "A right answer",
      option_b: "A wrong answer",
      option_c: "Another right answer",
      correct: "A,C",
    }),
    row({
      pool: "review",
      module: firstModule ? moduleCell(firstModule) : "Module title",
      kind: "single",
      question: "A review question: which is right?",
      option_a: "This one",
      option_b: "Not this one",
      correct: "A",
      feedback_a: "Yes: shown when the learner chooses A.",
      feedback_b: "No: shown when the learner chooses B.",
    }),
  ].join("");
}
