import { type Course, MAX_IMPORT_ROWS, type QuestionImportResult } from "@contract";
import { FileUpIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "../../../../components/ui/button";
import {
  CsvFilePicker,
  CsvRowStatus,
  csvFileProblem,
} from "../../../../components/ui/csv-file-picker";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../../components/ui/dialog";
import { ScrollRegion } from "../../../../components/ui/scroll-region";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { plural } from "../../../../lib/format";
import { ASSESSMENT_TOASTS, POOL_LABELS } from "../../admin-labels";
import { useImportQuestions } from "../../api/import-questions";
import { questionTemplateCsv } from "../../question-template";

/** The server's own limit on one file, checked here too so a wrong file fails at once. */
const MAX_FILE_BYTES = 2_000_000;
/** Rows the preview lists; the summary counts them all. */
const PREVIEW_ROWS = 200;

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
  const importQuestions = useImportQuestions();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const templateUrl = useMemo(
    () => `data:text/csv;charset=utf-8,${encodeURIComponent(questionTemplateCsv(course))}`,
    [course],
  );

  async function onFile(file: File | undefined) {
    setPicked(null);
    setError(null);
    if (!file) return;
    const problem = csvFileProblem(file, MAX_FILE_BYTES);
    if (problem) {
      setError(problem);
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
      <CsvFilePicker
        templateUrl={templateUrl}
        templateName="questions-template.csv"
        checking={checking}
        error={error}
        onFile={(file) => void onFile(file)}
      />
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
                      <CsvRowStatus errors={row.errors} />
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
