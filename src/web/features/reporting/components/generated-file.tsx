import type { ReportFile } from "@contract";
import { CircleCheckIcon, DownloadIcon } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { useDates } from "../../../lib/dates";
import { plural } from "../../../lib/format";
import { reportFileDownloadUrl } from "../api/get-report-files";

/**
 * A file just generated: its name and rows, the rows its format refused with the reason, and
 * (where the files list is not shown beside it) its download.
 */
export function GeneratedFile({ file, download }: { file: ReportFile; download?: boolean }) {
  return (
    <div
      role="status"
      className="grid gap-3 rounded-xl border border-emerald-200 bg-emerald-50/60 p-4 text-sm"
      data-testid="generated-file"
    >
      <p className="flex flex-wrap items-center gap-2 text-emerald-900">
        <CircleCheckIcon className="size-4" aria-hidden="true" />
        <span className="font-medium break-all">{file.fileName}</span>
        <span>· {plural(file.rowCount, "row")}</span>
      </p>
      {file.refused.length ? <RefusedRows file={file} /> : null}
      {download ? (
        <Button asChild variant="outline" size="sm" className="w-fit">
          <a href={reportFileDownloadUrl(file.regulator, file.id)} download={file.fileName}>
            <DownloadIcon aria-hidden="true" />
            Download
          </a>
        </Button>
      ) : null}
    </div>
  );
}

function RefusedRows({ file }: { file: ReportFile }) {
  const dates = useDates();
  const what = file.kind === "activities" ? "activity record" : "claim";
  return (
    <div className="grid gap-2 rounded-lg border border-amber-200 bg-white p-3">
      <p className="text-sm font-medium text-amber-900">
        {plural(file.refused.length, what)} refused by the format, not in the file:
      </p>
      <ul className="grid gap-2" data-testid="refused-rows">
        {file.refused.map((r) => (
          <li key={r.claimKey} className="text-sm text-zinc-800">
            {r.activity ? (
              <span className="font-medium">{r.activity}</span>
            ) : (
              <>
                <span className="font-medium">{r.learnerName}</span>{" "}
                <span className="text-zinc-600">(completed {dates.day(r.completedOn)})</span>
              </>
            )}
            : {r.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
