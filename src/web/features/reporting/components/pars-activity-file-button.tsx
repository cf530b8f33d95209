import type { ReportFile } from "@contract";
import { FileSpreadsheetIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { getErrorMessage } from "../../../lib/api-client";
import { useGenerateParsActivityFile } from "../api/generate-pars-activity-file";
import { GeneratedFile } from "./generated-file";

/**
 * The course's PARS activity file, from its start to today, generated and downloaded from
 * the course page; the Reporting page makes one for any range.
 */
export function ParsActivityFileButton({ courseId }: { courseId: string }) {
  const generate = useGenerateParsActivityFile();
  const [file, setFile] = useState<ReportFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="grid gap-3" data-testid="pars-activity-file">
      <p className="text-sm text-zinc-600">
        The course's activity record for PARS, its learners counted from its release date to today.
        The Reporting page makes one for any range.
      </p>
      <Button
        type="button"
        variant="outline"
        className="w-fit"
        disabled={generate.isPending}
        onClick={() => {
          setError(null);
          generate.mutate(
            { courseId },
            {
              onSuccess: setFile,
              onError: (err) => {
                setFile(null);
                setError(getErrorMessage(err) ?? "The activity file could not be generated.");
              },
            },
          );
        }}
      >
        {generate.isPending ? <Spinner /> : <FileSpreadsheetIcon aria-hidden="true" />}
        PARS activity file
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {file ? <GeneratedFile file={file} download /> : null}
    </div>
  );
}
