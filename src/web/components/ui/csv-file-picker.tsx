import { CircleAlertIcon, CircleCheckIcon, DownloadIcon } from "lucide-react";
import { useId } from "react";
import { Button } from "./button";
import { Label } from "./label";
import { Spinner } from "./spinner";

/** Why a chosen file cannot be sent for checking, or null when it can. */
export function csvFileProblem(file: File, maxBytes: number): string | null {
  if (!/\.csv$/i.test(file.name)) return "Choose a .csv file.";
  if (file.size > maxBytes) return "The file is too large (2 MB at most).";
  return null;
}

/**
 * The first step of an import from CSV: the file, a template to start from, the server's
 * check of every row while it runs, and what is wrong with the file.
 */
export function CsvFilePicker({
  templateUrl,
  templateName,
  checking,
  error,
  disabled,
  onFile,
}: {
  templateUrl: string;
  templateName: string;
  checking: boolean;
  error: string | null;
  disabled?: boolean;
  onFile: (file: File | undefined) => void;
}) {
  const inputId = useId();
  return (
    <>
      <div className="flex flex-col gap-3 rounded-xl border border-dashed border-zinc-300 p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid min-w-0 gap-2">
          <Label htmlFor={inputId}>CSV file</Label>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            disabled={disabled}
            className="max-w-full text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-zinc-900 hover:file:bg-zinc-50"
            aria-describedby={error ? `${inputId}-error` : undefined}
            onChange={(event) => onFile(event.target.files?.[0])}
          />
        </div>
        <Button asChild variant="ghost" size="sm" className="w-fit">
          <a href={templateUrl} download={templateName}>
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
    </>
  );
}

/** A previewed row's problems, or that it is ready. */
export function CsvRowStatus({ errors }: { errors: string[] }) {
  if (!errors.length) {
    return (
      <span className="flex items-center gap-1.5 text-emerald-800">
        <CircleCheckIcon className="size-3.5" aria-hidden="true" />
        Ready
      </span>
    );
  }
  return (
    <ul className="grid gap-1 text-red-800">
      {errors.map((e) => (
        <li key={e} className="flex items-start gap-1.5">
          <CircleAlertIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
          {e}
        </li>
      ))}
    </ul>
  );
}
