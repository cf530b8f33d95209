import { FileSpreadsheetIcon } from "lucide-react";
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
  // The last generation's file or refusal: a new one replaces it.
  const generate = useGenerateParsActivityFile();
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
        onClick={() => generate.mutate({ courseId })}
      >
        {generate.isPending ? <Spinner /> : <FileSpreadsheetIcon aria-hidden="true" />}
        PARS activity file
      </Button>
      {generate.isError ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {getErrorMessage(generate.error) ?? "The activity file could not be generated."}
        </p>
      ) : null}
      {generate.data ? <GeneratedFile file={generate.data} download /> : null}
    </div>
  );
}
