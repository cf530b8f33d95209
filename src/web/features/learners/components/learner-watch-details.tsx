import { formatWatchSeconds, type LearnerPackageProgress, type LearnerSummary } from "@contract";
import { useQueries } from "@tanstack/react-query";
import { useState } from "react";
import { Spinner } from "../../../components/ui/spinner";
import { loadFailureHint } from "../../../lib/api-client";
import { getLearnerPackageProgressQueryOptions } from "../api/get-learner-package-progress";
import { getLearnerWatchQueryOptions } from "../api/get-learner-watch";

/**
 * Per course and module, how much of each video the learner watched and how long
 * they sat with it playing, and for each SCORM or cmi5 module the status, score and times
 * of the learner's attempt. Loaded only when the administrator opens it.
 */
export function LearnerWatchDetails({ learner }: { learner: LearnerSummary }) {
  const [open, setOpen] = useState(false);
  if (learner.courses.length === 0) return null;
  return (
    <details
      className="mt-3 rounded-xl border border-zinc-200 text-sm"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="cursor-pointer rounded-xl px-3 py-2 font-medium text-zinc-800 hover:bg-zinc-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
        Watching per module
      </summary>
      {open ? <WatchTables learner={learner} /> : null}
    </details>
  );
}

function WatchTables({ learner }: { learner: LearnerSummary }) {
  const results = useQueries({
    queries: learner.courses.map((c) => getLearnerWatchQueryOptions(learner.id, c.courseId)),
  });
  const packages = useQueries({
    queries: learner.courses.map((c) =>
      getLearnerPackageProgressQueryOptions(learner.id, c.courseId),
    ),
  });
  return (
    <div className="grid gap-4 border-t border-zinc-100 p-3">
      {learner.courses.map((course, i) => {
        const result = results[i];
        const packageModules = packages[i]?.data?.modules ?? [];
        const packageIds = new Set(packageModules.map((m) => m.moduleId));
        const videos = result?.data?.modules.filter((m) => !packageIds.has(m.moduleId)) ?? [];
        return (
          <section key={course.enrollmentId} className="grid gap-2">
            <h4 className="text-xs font-semibold text-zinc-900">
              {course.title}
              {result?.data?.completionPolicy === "verified" ? (
                <span className="ml-2 font-normal text-indigo-700">
                  Verified · {result.data.minWatchPercent}% required
                </span>
              ) : null}
            </h4>
            {result?.isPending ? (
              <p className="flex items-center gap-2 text-xs text-zinc-600">
                <Spinner className="size-3.5" /> Loading...
              </p>
            ) : result?.isError ? (
              <p className="text-xs text-red-700">
                {loadFailureHint(result.error, "Could not load watching data.")}
              </p>
            ) : videos.length === 0 && packageModules.length ? null : (
              <div className="overflow-x-auto">
                <table className="w-full text-left text-xs">
                  <thead className="text-zinc-600">
                    <tr>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Module
                      </th>
                      <th scope="col" className="py-1 pr-3 text-right font-medium">
                        Watched
                      </th>
                      <th scope="col" className="py-1 text-right font-medium">
                        Seat time
                      </th>
                    </tr>
                  </thead>
                  <tbody className="text-zinc-900 tabular-nums">
                    {videos.map((m) => (
                      <tr key={m.moduleId} className="border-t border-zinc-100">
                        <td className="py-1 pr-3">{m.moduleTitle}</td>
                        <td className="py-1 pr-3 text-right">{m.watchedPercent}%</td>
                        <td className="py-1 text-right">{formatWatchSeconds(m.seatSeconds)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {packageModules.length ? <PackageTable modules={packageModules} /> : null}
          </section>
        );
      })}
    </div>
  );
}

/** The course's SCORM and cmi5 modules: the learner's current attempt, as reported and measured. */
function PackageTable({ modules }: { modules: LearnerPackageProgress["modules"] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-xs" data-testid="learner-package-progress">
        <thead className="text-zinc-600">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Package module
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Status
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Score
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Reported
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Seat time
            </th>
          </tr>
        </thead>
        <tbody className="text-zinc-900 tabular-nums">
          {modules.map((m) => (
            <tr key={m.moduleId} className="border-t border-zinc-100">
              <td className="py-1 pr-3">{m.moduleTitle}</td>
              <td className="py-1 pr-3">
                {m.status}
                {m.attempts > 1 ? ` (attempt ${m.currentAttempt ?? m.attempts + 1})` : ""}
              </td>
              <td className="py-1 pr-3 text-right">
                {m.scorePercent === null ? "—" : `${m.scorePercent}%`}
              </td>
              <td className="py-1 pr-3 text-right">{formatWatchSeconds(m.reportedSeconds)}</td>
              <td className="py-1 text-right">{formatWatchSeconds(m.seatSeconds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
