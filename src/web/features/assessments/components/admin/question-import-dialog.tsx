import {
  type Course,
  MAX_IMPORT_ROWS,
  QUESTION_CSV_COLUMNS,
  type QuestionImportResult,
} from "@contract";
import { CircleAlertIcon, CircleCheckIcon, DownloadIcon, FileUpIcon } from "lucide-react";
import { type ChangeEvent, useId, useMemo, useState } from "react";
import { Button } from "../../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../../components/ui/dialog";
import { Label } from "../../../../components/ui/label";
import { ScrollRegion } from "../../../../components/ui/scroll-region";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { plural } from "../../../../lib/format";
import { ASSESSMENT_TOASTS, POOL_LABELS } from "../../admin-labels";
import { useImportQuestions } from "../../api/import-questions";

/** The server's own limit on one file, checked here too so a wrong file fails at once. */
const MAX_FILE_BYTES = 2_000_000;
/** Rows the preview lists; the summary counts them all. */
const PREVIEW_ROWS = 200;

const csvCell = (value: string) =>
  /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/** A file with the header and one example of each kind of row, for the course's own modules. */
function templateCsv(course: Course): string {
  const row = (cells: Partial<Record<(typeof QUESTION_CSV_COLUMNS)[number], string>>) =>
    QUESTION_CSV_COLUMNS.map((c) => csvCell(cells[c] ?? "")).join(",");
  const lines = [
    QUESTION_CSV_COLUMNS.join(","),
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
      module: course.modules[0]?.title ?? "Module title",
      kind: "single",
      question: "A review question: which is right?",
      option_a: "This one",
      option_b: "Not this one",
      correct: "A",
      feedback_a: "Yes: shown when the learner chooses A.",
      feedback_b: "No: shown when the learner chooses B.",
    }),
  ];
  return `${lines.join("\r\n")}\r\n`;
}

type Picked = { name: string; csv: string; preview: QuestionImportResult };

/**
 * Imports questions from a CSV file: the server checks every row first and the preview shows
 * what will be added and what is wrong; only then are the valid rows saved.
 */
export function QuestionImportDialog({
  course,
  open,
  onOpenChange,
}: {
  course: Course;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Import questions</DialogTitle>
          <DialogDescription>
            One question per row, at most {MAX_IMPORT_ROWS.toLocaleString("en-US")} rows and 2 MB.
            Nothing is saved until you confirm the preview.
          </DialogDescription>
        </DialogHeader>
        {open ? <ImportForm course={course} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ImportForm({ course, onDone }: { course: Course; onDone: () => void }) {
  const inputId = useId();
  const importQuestions = useImportQuestions();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const templateUrl = useMemo(
    () => `data:text/csv;charset=utf-8,${encodeURIComponent(templateCsv(course))}`,
    [course],
  );

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setPicked(null);
    setError(null);
    if (!file) return;
    if (!/\.csv$/i.test(file.name)) {
      setError("Choose a .csv file.");
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setError("The file is too large (2 MB at most).");
      return;
    }
    setChecking(true);
    try {
      const csv = await file.text();
      const preview = await importQuestions.mutateAsync({ courseId: course.id, csv, dryRun: true });
      setPicked({ name: file.name, csv, preview });
    } catch (failure) {
      setError(getErrorMessage(failure) ?? "The file could not be checked.");
    } finally {
      setChecking(false);
    }
  }

  const rows = picked?.preview.rows ?? [];
  const ready = rows.filter((r) => r.question !== null).length;
  const broken = rows.length - ready;

  async function onImport() {
    if (!picked) return;
    try {
      const result = await importQuestions.mutateAsync({
        courseId: course.id,
        csv: picked.csv,
        dryRun: false,
      });
      toast({ title: ASSESSMENT_TOASTS.imported(result.imported) });
      onDone();
    } catch (failure) {
      toast({
        variant: "destructive",
        title: ASSESSMENT_TOASTS.error,
        description: getErrorMessage(failure) ?? "The questions could not be imported.",
      });
    }
  }

  return (
    <div className="grid min-w-0 grid-cols-1 gap-5">
      <div className="flex flex-col gap-3 rounded-xl border border-dashed border-zinc-300 p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-2">
          <Label htmlFor={inputId}>CSV file</Label>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            className="text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-zinc-900 hover:file:bg-zinc-50"
            aria-describedby={error ? `${inputId}-error` : undefined}
            onChange={(event) => void onFile(event)}
          />
        </div>
        <Button asChild variant="ghost" size="sm" className="w-fit">
          <a href={templateUrl} download="questions-template.csv">
            <DownloadIcon aria-hidden="true" />
            Download template
          </a>
        </Button>
      </div>
      {checking ? (
        <p role="status" className="flex items-center gap-2 text-sm text-zinc-700">
          <Spinner className="size-4 text-indigo-600" />
          Checking every row…
        </p>
      ) : null}
      {error ? (
        <p id={`${inputId}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {picked ? (
        <div className="grid min-w-0 gap-3">
          <p role="status" data-testid="import-summary" className="text-sm text-zinc-800">
            <span className="font-medium">{picked.name}</span>: {plural(ready, "question")} ready
            {broken ? `, ${plural(broken, "row")} with problems (not imported)` : ""}.
          </p>
          <ScrollRegion
            aria-label="Rows of the file"
            className="max-h-80 overflow-auto rounded-xl border border-zinc-200"
          >
            <table className="w-full min-w-[32rem] text-left text-sm">
              <caption className="sr-only">Rows of the file</caption>
              <thead className="sticky top-0 bg-zinc-50 text-xs text-zinc-600">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Line
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Question
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Pool
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {rows.slice(0, PREVIEW_ROWS).map((row) => (
                  <tr key={row.line} data-testid="import-row" className="align-top">
                    <td className="px-3 py-2 text-zinc-600 tabular-nums">{row.line}</td>
                    <td className="max-w-xs px-3 py-2 break-words text-zinc-900">
                      {row.question?.text ?? "—"}
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap text-zinc-700">
                      {row.question ? POOL_LABELS[row.question.pool] : "—"}
                    </td>
                    <td className="px-3 py-2">
                      {row.errors.length ? (
                        <ul className="grid gap-1 text-red-800">
                          {row.errors.map((e) => (
                            <li key={e} className="flex items-start gap-1.5">
                              <CircleAlertIcon
                                className="mt-0.5 size-3.5 shrink-0"
                                aria-hidden="true"
                              />
                              {e}
                            </li>
                          ))}
                        </ul>
                      ) : (
                        <span className="flex items-center gap-1.5 text-emerald-800">
                          <CircleCheckIcon className="size-3.5" aria-hidden="true" />
                          Ready
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          {rows.length > PREVIEW_ROWS ? (
            <p className="text-xs text-zinc-600">
              The first {PREVIEW_ROWS} of {rows.length} rows are listed.
            </p>
          ) : null}
        </div>
      ) : null}
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button
          onClick={() => void onImport()}
          disabled={!picked || ready === 0 || importQuestions.isPending}
        >
          {importQuestions.isPending && !checking ? <Spinner /> : <FileUpIcon aria-hidden="true" />}
          {ready ? `Import ${plural(ready, "question")}` : "Import"}
        </Button>
      </DialogFooter>
    </div>
  );
}
