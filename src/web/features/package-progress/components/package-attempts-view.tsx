import {
  formatWatchSeconds,
  PACKAGE_PROGRESS_MESSAGES,
  PACKAGE_PROGRESS_SORTS,
  type PackageProgressRow,
  type PackageProgressSort,
  type PackageProgressStatus,
} from "@contract";
import { BadgeCheckIcon, DownloadIcon, RotateCcwIcon, SearchXIcon, UsersIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { EmailText } from "../../../components/email-text";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { useConfirm } from "../../../components/ui/confirm-dialog";
import { EmptyState } from "../../../components/ui/empty-state";
import { Label } from "../../../components/ui/label";
import { LoadError } from "../../../components/ui/load-error";
import { NativeSelect } from "../../../components/ui/native-select";
import { SearchField } from "../../../components/ui/search-field";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { packageAttemptsCsvUrl, usePackageAttempts } from "../api/get-package-attempts";
import { useResetPackageAttempt } from "../api/reset-package-attempt";
import { Cmi5WaiveDialog, type WaiveTarget } from "./cmi5-waive-dialog";

const SEARCH_DEBOUNCE_MS = 300;

const SORT_LABELS: Record<PackageProgressSort, string> = {
  name: "Name, A to Z",
  "-name": "Name, Z to A",
  email: "Email, A to Z",
  "-email": "Email, Z to A",
};

const STATUS_VARIANTS = {
  "Not started": "outline",
  "In progress": "default",
  Completed: "success",
  Passed: "success",
  Failed: "destructive",
} as const satisfies Record<PackageProgressStatus, string>;

/** `value`, once it has stopped changing for `delay` ms. */
function useDebouncedValue<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

type Target = {
  courseId: string;
  moduleId: string;
  moduleTitle: string;
  /** A cmi5 module's units, which an administrator may waive for a learner. */
  units?: { id: string; title: string }[];
};

/** Which attempt the status is of, and how many there were. */
function attemptText(row: PackageProgressRow): string {
  if (row.currentAttempt) return `Attempt ${row.currentAttempt} of ${row.attempts}`;
  if (row.attempts) return `Attempt ${row.attempts + 1} at next launch`;
  return "Not launched yet";
}

function StatusBadge({ row }: { row: PackageProgressRow }) {
  return (
    <span className="inline-grid justify-items-start gap-1">
      <Badge variant={STATUS_VARIANTS[row.status]}>{row.status}</Badge>
      <span className="text-xs text-zinc-600">{attemptText(row)}</span>
    </span>
  );
}

const score = (row: PackageProgressRow) =>
  row.scorePercent === null ? "—" : `${row.scorePercent}%`;

/** The module's completion in the learner's progress: what earns credit. */
function ModuleDone({ row }: { row: PackageProgressRow }) {
  const dates = useDates();
  return row.moduleCompleted ? (
    <span className="inline-grid justify-items-start gap-1">
      <Badge variant="success">Complete</Badge>
      <span className="text-xs whitespace-nowrap text-zinc-600">
        {dates.shortDate(row.moduleCompletedAt)}
      </span>
    </span>
  ) : (
    <span className="text-zinc-600">Not yet</span>
  );
}

/**
 * A package module's learners: each one's status, score, reported and seat time and
 * attempts, searched by name or email, exported as CSV, and a learner's attempt reset after
 * a confirmation. A table on wide screens, a card per learner on a phone; pages of 25 with
 * Load more.
 */
export function PackageAttemptsView({ target }: { target: Target }) {
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<PackageProgressSort>("name");
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const attempts = usePackageAttempts(target, q, sort);
  const reset = useResetPackageAttempt();
  const [waiveTarget, setWaiveTarget] = useState<WaiveTarget | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const dates = useDates();
  const rows = attempts.data?.pages.flatMap((page) => page.items) ?? [];
  const searching = search.trim() !== q;

  async function onReset(row: PackageProgressRow) {
    if (!row.currentAttempt) return;
    const confirmed = await confirm({
      title: "Reset attempt?",
      message: `${row.learner.name}'s attempt ${row.currentAttempt} at “${target.moduleTitle}” ends, and their next launch starts attempt ${row.currentAttempt + 1} from the beginning.\n\nWhat they already completed stays complete, and the ended attempt stays on record.`,
      confirmLabel: "Reset attempt",
    });
    if (!confirmed) return;
    try {
      await reset.mutateAsync({
        courseId: target.courseId,
        moduleId: target.moduleId,
        userId: row.learner.id,
      });
      toast({
        title: "Attempt reset",
        description: PACKAGE_PROGRESS_MESSAGES.attemptReset(
          row.learner.name,
          row.currentAttempt + 1,
        ),
      });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Attempt not reset",
        description: getErrorMessage(error) ?? "The attempt could not be reset.",
      });
    }
  }

  const resetButton = (row: PackageProgressRow) =>
    row.currentAttempt ? (
      <Button
        variant="outline"
        size="sm"
        disabled={reset.isPending && reset.variables?.userId === row.learner.id}
        aria-label={`Reset ${row.learner.name}'s attempt`}
        onClick={() => void onReset(row)}
      >
        <RotateCcwIcon aria-hidden="true" />
        Reset attempt
      </Button>
    ) : null;

  // A cmi5 module's unit may be waived for a learner who started the module.
  const waiveButton = (row: PackageProgressRow) =>
    target.units && row.currentAttempt && !row.moduleCompleted ? (
      <Button
        variant="outline"
        size="sm"
        aria-label={`Waive a unit for ${row.learner.name}`}
        onClick={() => setWaiveTarget({ userId: row.learner.id, learnerName: row.learner.name })}
      >
        <BadgeCheckIcon aria-hidden="true" />
        Waive a unit
      </Button>
    ) : null;

  const actions = (row: PackageProgressRow) => (
    <div className="flex flex-wrap justify-end gap-2 empty:hidden">
      {waiveButton(row)}
      {resetButton(row)}
    </div>
  );

  return (
    <div className="grid min-w-0 grid-cols-1 gap-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <SearchField
            value={search}
            onChange={setSearch}
            label="Search learners by name or email"
            placeholder="Search by name or email"
            searching={searching}
            className="w-full sm:w-72"
          />
          <div className="grid gap-1.5 sm:w-48">
            <Label htmlFor="package-attempts-sort">Sort by</Label>
            <NativeSelect
              id="package-attempts-sort"
              value={sort}
              onChange={(event) => setSort(event.target.value as PackageProgressSort)}
            >
              {PACKAGE_PROGRESS_SORTS.map((value) => (
                <option key={value} value={value}>
                  {SORT_LABELS[value]}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
        <Button asChild variant="outline" className="self-start sm:self-auto">
          <a href={packageAttemptsCsvUrl(target, q, sort)} download>
            <DownloadIcon aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      </div>

      {attempts.isPending ? (
        <div className="grid gap-3" aria-hidden="true">
          <Skeleton className="h-14 rounded-xl" />
          <Skeleton className="h-14 rounded-xl" />
          <Skeleton className="h-14 rounded-xl" />
        </div>
      ) : attempts.isError ? (
        <LoadError
          message={loadFailureHint(attempts.error, "The learners could not be loaded.")}
          onRetry={() => void attempts.refetch()}
        />
      ) : rows.length === 0 ? (
        q ? (
          <EmptyState
            icon={<SearchXIcon />}
            title="No learners found matching your search"
            description={`Nobody enrolled has “${q}” in their name or email.`}
            action={
              <Button variant="outline" onClick={() => setSearch("")}>
                Clear search
              </Button>
            }
          />
        ) : (
          <EmptyState
            icon={<UsersIcon />}
            title="No learners enrolled yet"
            description="Learners enrolled in the course appear here with their attempts at this module."
          />
        )
      ) : (
        <>
          <Card className="hidden min-w-0 overflow-hidden md:block">
            <table
              aria-label={`Learners of ${target.moduleTitle}`}
              className="w-full text-left text-sm"
            >
              <thead className="bg-zinc-50 text-xs text-zinc-600">
                <tr>
                  <th scope="col" className="px-5 py-2.5 font-medium">
                    Learner
                  </th>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-3 py-2.5 text-right font-medium">
                    Score
                  </th>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Time
                  </th>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Module
                  </th>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Last activity
                  </th>
                  <th scope="col" className="px-5 py-2.5 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {rows.map((row) => (
                  <tr key={row.learner.id} data-testid="package-learner-row" className="align-top">
                    <td className="min-w-[13rem] px-5 py-3">
                      <p className="font-medium text-zinc-950">{row.learner.name}</p>
                      <p className="text-xs text-zinc-600">
                        <EmailText email={row.learner.email} />
                      </p>
                    </td>
                    <td className="min-w-[10rem] px-3 py-3">
                      <StatusBadge row={row} />
                    </td>
                    <td className="px-3 py-3 text-right font-medium text-zinc-900 tabular-nums">
                      {score(row)}
                    </td>
                    <td className="px-3 py-3 whitespace-nowrap text-zinc-900 tabular-nums">
                      <p>
                        {formatWatchSeconds(row.reportedSeconds)}{" "}
                        <span className="text-xs text-zinc-600">reported</span>
                      </p>
                      <p>
                        {formatWatchSeconds(row.seatSeconds)}{" "}
                        <span className="text-xs text-zinc-600">seat time</span>
                      </p>
                    </td>
                    <td className="px-3 py-3">
                      <ModuleDone row={row} />
                    </td>
                    <td className="px-3 py-3 whitespace-nowrap text-zinc-700">
                      {row.lastActivityAt ? (
                        <time
                          dateTime={row.lastActivityAt}
                          title={dates.dateTime(row.lastActivityAt)}
                        >
                          {dates.shortDate(row.lastActivityAt)}
                        </time>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="px-5 py-3 text-right">{actions(row)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
          <ul aria-label={`Learners of ${target.moduleTitle}`} className="grid gap-3 md:hidden">
            {rows.map((row) => (
              <li key={row.learner.id} data-testid="package-learner-card">
                <Card className="grid gap-3 p-4">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <p className="font-medium text-zinc-950">{row.learner.name}</p>
                      <p className="text-xs text-zinc-600">
                        <EmailText email={row.learner.email} />
                      </p>
                    </div>
                    <StatusBadge row={row} />
                  </div>
                  <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                    <div>
                      <dt className="text-xs text-zinc-600">Score</dt>
                      <dd className="font-medium text-zinc-900 tabular-nums">{score(row)}</dd>
                    </div>
                    <div>
                      <dt className="text-xs text-zinc-600">Attempts started</dt>
                      <dd className="text-zinc-900 tabular-nums">{row.attempts}</dd>
                    </div>
                    <div>
                      <dt className="text-xs text-zinc-600">Reported time</dt>
                      <dd className="text-zinc-900 tabular-nums">
                        {formatWatchSeconds(row.reportedSeconds)}
                      </dd>
                    </div>
                    <div>
                      <dt className="text-xs text-zinc-600">Seat time</dt>
                      <dd className="text-zinc-900 tabular-nums">
                        {formatWatchSeconds(row.seatSeconds)}
                      </dd>
                    </div>
                    <div>
                      <dt className="text-xs text-zinc-600">Module</dt>
                      <dd>
                        <ModuleDone row={row} />
                      </dd>
                    </div>
                    <div>
                      <dt className="text-xs text-zinc-600">Last activity</dt>
                      <dd className="text-zinc-700">{dates.dateTime(row.lastActivityAt)}</dd>
                    </div>
                  </dl>
                  {row.currentAttempt ? (
                    <div className="[&>div]:justify-start">{actions(row)}</div>
                  ) : null}
                </Card>
              </li>
            ))}
          </ul>
          {attempts.hasNextPage ? (
            <Button
              variant="outline"
              className="justify-self-center"
              disabled={attempts.isFetchingNextPage || attempts.isPlaceholderData}
              onClick={() => void attempts.fetchNextPage()}
            >
              {attempts.isFetchingNextPage ? <Spinner className="size-4" /> : null}
              Load more
            </Button>
          ) : null}
        </>
      )}
      {target.units ? (
        <Cmi5WaiveDialog
          courseId={target.courseId}
          moduleId={target.moduleId}
          units={target.units}
          target={waiveTarget}
          onClose={() => setWaiveTarget(null)}
        />
      ) : null}
      {confirmDialog}
    </div>
  );
}
