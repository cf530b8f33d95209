import {
  LEARNER_CSV_COLUMNS,
  LEARNER_IMPORT_MAX_CHARS,
  LEARNER_IMPORT_MAX_ROWS,
  type LearnerImportPreview,
  type LearnerImportResultRow,
} from "@contract";
import { DownloadIcon, FileUpIcon, MailCheckIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  CsvFilePicker,
  CsvRowStatus,
  csvFileProblem,
} from "../../../components/ui/csv-file-picker";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../../components/ui/dialog";
import { Progress } from "../../../components/ui/progress";
import { ScrollRegion } from "../../../components/ui/scroll-region";
import { Spinner } from "../../../components/ui/spinner";
import { getErrorMessage } from "../../../lib/api-client";
import { plural } from "../../../lib/format";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { useImportLearners } from "../api/import-learners";
import { usePreviewLearnerImport } from "../api/preview-learner-import";
import { rejectedRows, rejectedRowsCsv } from "../rejected-rows";

/** Rows the preview lists (problems first); the counts cover them all. */
const PREVIEW_ROWS = 200;

const TEMPLATE = `${LEARNER_CSV_COLUMNS.join(",")}\r\nAda Lovelace,ada@example.com,+1 555 0100,Course title; Another course\r\n`;
const templateUrl = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`;

type Picked = { name: string; preview: LearnerImportPreview };

/**
 * Registers learners from a CSV file: the server checks every row first and the preview
 * shows what will happen; the valid rows are then registered batch after batch under a
 * progress bar, and the summary offers the rejected rows as a file to fix.
 */
export function ImportLearnersDialog({
  open,
  onOpenChange,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      // The import runs batch after batch: the dialog stays until it is done.
      onOpenChange={(next) => {
        if (!busy || next) onOpenChange(next);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Import learners</DialogTitle>
          <DialogDescription>
            A CSV file with the columns name, email, phone and courses (titles or ids, separated by
            ; or |), at most {LEARNER_IMPORT_MAX_ROWS.toLocaleString("en-US")} rows and 2 MB.
            Nothing is saved until you confirm the preview.
          </DialogDescription>
        </DialogHeader>
        {open ? <ImportFlow onBusy={setBusy} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ImportFlow({ onBusy, onDone }: { onBusy: (busy: boolean) => void; onDone: () => void }) {
  const previewImport = usePreviewLearnerImport();
  const importLearners = useImportLearners();
  const [picked, setPicked] = useState<Picked | null>(null);
  // One key per file picked: its batches, sent again after a lost answer, register once.
  const single = useSingleSubmit(picked);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(0);
  const [results, setResults] = useState<LearnerImportResultRow[] | null>(null);

  async function onFile(file: File | undefined) {
    setPicked(null);
    setError(null);
    if (!file) return;
    const problem = csvFileProblem(file, LEARNER_IMPORT_MAX_CHARS);
    if (problem) {
      setError(problem);
      return;
    }
    try {
      const preview = await previewImport.mutateAsync(await file.text());
      setPicked({ name: file.name, preview });
    } catch (failure) {
      setError(getErrorMessage(failure) ?? "The file could not be checked. Please try again.");
    }
  }

  async function onImport() {
    if (!picked) return;
    const rows = picked.preview.rows
      .filter((row) => row.errors.length === 0)
      .map((row) => ({
        line: row.line,
        name: row.name,
        email: row.email,
        phone: row.phone,
        courseIds: row.courses.map((course) => course.id),
      }));
    setDone(0);
    onBusy(true);
    try {
      const imported = await single((idempotencyKey) =>
        importLearners.mutateAsync({ rows, onProgress: setDone, idempotencyKey }),
      );
      if (imported) setResults(imported);
    } finally {
      onBusy(false);
    }
  }

  if (picked && results) return <ImportSummary picked={picked} results={results} onDone={onDone} />;

  const rows = picked?.preview.rows ?? [];
  const listed = [...rows]
    .sort((a, b) => Number(b.errors.length > 0) - Number(a.errors.length > 0) || a.line - b.line)
    .slice(0, PREVIEW_ROWS);
  const valid = picked?.preview.valid ?? 0;
  const invalid = picked?.preview.invalid ?? 0;
  const importing = importLearners.isPending;

  return (
    <div className="grid min-w-0 grid-cols-1 gap-5">
      <CsvFilePicker
        templateUrl={templateUrl}
        templateName="learners-template.csv"
        checking={previewImport.isPending}
        error={error}
        disabled={importing}
        onFile={(file) => void onFile(file)}
      />
      {picked && !importing ? (
        <div className="grid min-w-0 gap-3">
          <p role="status" data-testid="import-preview-summary" className="text-sm text-zinc-800">
            <span className="font-medium break-all">{picked.name}</span>: {plural(valid, "learner")}{" "}
            ready
            {invalid ? `, ${plural(invalid, "row")} with problems (not imported)` : ""}.
          </p>
          <ScrollRegion
            aria-label="Rows of the file"
            className="max-h-80 overflow-auto rounded-xl border border-zinc-200"
          >
            <table className="w-full text-left text-sm sm:min-w-[40rem]">
              <caption className="sr-only">Rows of the file</caption>
              <thead className="sticky top-0 bg-zinc-50 text-xs text-zinc-600">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Line
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Learner
                  </th>
                  <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                    Courses
                  </th>
                  <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {listed.map((row) => (
                  <tr key={row.line} data-testid="import-row" className="align-top">
                    <td className="px-3 py-2 text-zinc-600 tabular-nums">{row.line}</td>
                    <td className="px-3 py-2 break-words sm:max-w-56">
                      <span className="block font-medium text-zinc-900">{row.name || "—"}</span>
                      <span className="block text-zinc-600">{row.email || "—"}</span>
                      {/* Phones have no room for more columns: courses and status go here. */}
                      <div className="mt-1.5 grid gap-1.5 sm:hidden">
                        {row.courses.length ? (
                          <span className="text-zinc-700">
                            {row.courses.map((c) => c.title).join(", ")}
                          </span>
                        ) : null}
                        <CsvRowStatus errors={row.errors} />
                      </div>
                    </td>
                    <td className="hidden max-w-48 px-3 py-2 break-words text-zinc-700 sm:table-cell">
                      {row.courses.length ? row.courses.map((c) => c.title).join(", ") : "—"}
                    </td>
                    <td className="hidden px-3 py-2 sm:table-cell">
                      <CsvRowStatus errors={row.errors} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          {rows.length > PREVIEW_ROWS ? (
            <p className="text-xs text-zinc-600">
              {PREVIEW_ROWS} of {rows.length.toLocaleString("en-US")} rows are listed, problems
              first.
            </p>
          ) : null}
        </div>
      ) : null}
      {importing && picked ? (
        <div className="grid gap-2" data-testid="import-progress">
          <p className="flex items-center gap-2 text-sm font-medium text-zinc-900">
            <Spinner className="size-4 text-indigo-600" />
            Registering learners…
          </p>
          <Progress
            value={(done / Math.max(1, valid)) * 100}
            aria-label="Learners registered"
            aria-valuetext={`${done} of ${valid}`}
          />
          <p className="text-sm text-zinc-700 tabular-nums">
            {done.toLocaleString("en-US")} of {valid.toLocaleString("en-US")}
          </p>
        </div>
      ) : null}
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline" disabled={importing}>
            Cancel
          </Button>
        </DialogClose>
        <Button onClick={() => void onImport()} disabled={!picked || valid === 0 || importing}>
          {importing ? <Spinner /> : <FileUpIcon aria-hidden="true" />}
          {valid ? `Import ${plural(valid, "learner")}` : "Import"}
        </Button>
      </DialogFooter>
    </div>
  );
}

function ImportSummary({
  picked,
  results,
  onDone,
}: {
  picked: Picked;
  results: LearnerImportResultRow[];
  onDone: () => void;
}) {
  const registered = results.filter((r) => r.outcome === "registered");
  const enrolled = registered.reduce((sum, r) => sum + r.enrolled, 0);
  const invited = registered.filter((r) => r.invited).length;
  const rejected = rejectedRows(picked.preview.rows, results);

  function download() {
    const url = URL.createObjectURL(
      new Blob([rejectedRowsCsv(rejected)], { type: "text/csv;charset=utf-8" }),
    );
    const link = document.createElement("a");
    link.href = url;
    link.download = `rejected-${picked.name.replace(/\.csv$/i, "")}.csv`;
    link.rel = "noopener";
    document.body.append(link);
    link.click();
    link.remove();
    // The browser reads the file after this handler returns: free it a while later.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  return (
    <div className="grid min-w-0 grid-cols-1 gap-5" data-testid="import-summary">
      <h3 className="sr-only">Summary</h3>
      <dl className="grid grid-cols-3 gap-3">
        <Figure label="Registered" value={registered.length} tone="text-emerald-700" />
        <Figure label="Enrolled" value={enrolled} tone="text-indigo-700" />
        <Figure label="Rejected" value={rejected.length} tone="text-red-700" />
      </dl>
      <p role="status" className="flex items-start gap-2 text-sm text-zinc-800">
        <MailCheckIcon className="mt-0.5 size-4 shrink-0 text-zinc-500" aria-hidden="true" />
        {registered.length
          ? `${plural(registered.length, "learner")} registered from ${picked.name}; ${plural(
              invited,
              "invitation",
            )} sent${invited < registered.length ? ` (${registered.length - invited} could not be sent)` : ""}.`
          : `Nobody was registered from ${picked.name}.`}
        {rejected.length ? ` ${plural(rejected.length, "row")} not imported.` : ""}
      </p>
      <DialogFooter className="pt-1">
        {rejected.length ? (
          <Button variant="outline" onClick={download}>
            <DownloadIcon aria-hidden="true" />
            Download rejected rows
          </Button>
        ) : null}
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </div>
  );
}

function Figure({ label, value, tone }: { label: string; value: number; tone: string }) {
  return (
    <div className="grid gap-0.5 rounded-xl border border-zinc-200 bg-zinc-50 px-3 py-3 sm:px-4">
      <dt className="text-xs font-medium text-zinc-600">{label}</dt>
      <dd className={`text-2xl leading-tight font-semibold tabular-nums ${tone}`}>
        {value.toLocaleString("en-US")}
      </dd>
    </div>
  );
}
