import { REGULATOR_NAMES, REGULATORS, type Regulator, type RegulatorOverview } from "@contract";
import { AlarmClockIcon, FileOutputIcon, HourglassIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "../../../components/ui/badge";
import { EmptyState } from "../../../components/ui/empty-state";
import { LoadError } from "../../../components/ui/load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { StatCard } from "../../../components/ui/stat-card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs";
import { loadFailureHint } from "../../../lib/api-client";
import { plural } from "../../../lib/format";
import { useRegulators } from "../api/get-regulators";
import { ConnectionCard } from "./connection-card";
import { CpeMonitorSubmitCard } from "./cpe-monitor-submit-card";
import { DeadlineCard } from "./deadline-card";
import { GenerateFileCard } from "./generate-file-card";
import { ReportClaimsCard } from "./report-claims-card";
import { ReportFilesCard } from "./report-files-card";

/**
 * /admin/reporting: for each regulator, the report files of a course and date range and their
 * submission (CPE Monitor: the completions sent to its web service), every claim with where
 * it stands, those waiting past the deadline first, and how Credo reaches the regulator.
 * `courseId` opens the page on one course (from its course page).
 */
export function ReportingView({ courseId }: { courseId?: string }) {
  const query = useRegulators();
  const [tab, setTab] = useState<Regulator | undefined>(undefined);

  if (query.isPending) {
    return (
      <div className="grid gap-4" aria-hidden="true">
        <Skeleton className="h-10 w-80 rounded-xl" />
        <Skeleton className="h-40 w-full rounded-2xl" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadError
        message={loadFailureHint(query.error, "We couldn't load the reporting overview.")}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const overviews = query.data;
  // Open on the regulator the course reports to, or the first with anything to report.
  const preferred =
    overviews.find((o) => courseId && o.courses.some((c) => c.id === courseId)) ??
    overviews.find((o) => o.courses.length) ??
    overviews[0]!;
  const selected = tab ?? preferred.regulator;

  return (
    <Tabs value={selected} onValueChange={(v) => setTab(v as Regulator)}>
      {/* Three regulators fit a phone's width side by side, their names wrapping if need be. */}
      <TabsList
        aria-label="Regulators"
        className="grid h-auto w-full grid-cols-3 sm:inline-flex sm:h-10 sm:w-auto"
      >
        {REGULATORS.map((regulator) => {
          const overdue = overviews.find((o) => o.regulator === regulator)?.overdue ?? 0;
          return (
            <TabsTrigger
              key={regulator}
              value={regulator}
              className="h-full min-h-8 whitespace-normal py-1 text-center leading-tight sm:h-8 sm:whitespace-nowrap"
            >
              {REGULATOR_NAMES[regulator]}
              {overdue ? (
                <Badge variant="warning" aria-label={`${overdue} overdue`}>
                  {overdue}
                </Badge>
              ) : null}
            </TabsTrigger>
          );
        })}
      </TabsList>
      {overviews.map((overview) => (
        <TabsContent key={overview.regulator} value={overview.regulator} className="grid gap-6">
          <RegulatorPanel overview={overview} courseId={courseId} />
        </TabsContent>
      ))}
    </Tabs>
  );
}

function RegulatorPanel({
  overview,
  courseId,
}: {
  overview: RegulatorOverview;
  courseId?: string;
}) {
  const { regulator } = overview;
  const known = overview.courses.some((c) => c.id === courseId);
  const [course, setCourse] = useState(known ? courseId! : (overview.courses[0]?.id ?? ""));
  const filter = course || undefined;
  return (
    <>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
        <StatCard
          label="Waiting to be reported"
          value={overview.waiting}
          icon={<HourglassIcon />}
          tone="sky"
        />
        <StatCard
          label={`Waiting over ${plural(overview.deadlineDays, "day")}`}
          value={overview.overdue}
          icon={<AlarmClockIcon />}
          tone={overview.overdue ? "amber" : "emerald"}
        />
        <DeadlineCard overview={overview} />
      </div>
      {overview.courses.length === 0 ? (
        <EmptyState
          icon={<FileOutputIcon />}
          title={`No course reports to ${REGULATOR_NAMES[regulator]}`}
          description="Choose the regulators of a course's credit types on its course page."
        />
      ) : (
        <>
          {regulator === "cpe_monitor" ? (
            <CpeMonitorSubmitCard overview={overview} course={course} onCourse={setCourse} />
          ) : (
            <>
              <GenerateFileCard overview={overview} course={course} onCourse={setCourse} />
              <ReportFilesCard regulator={regulator} courseId={filter} />
            </>
          )}
          <ReportClaimsCard
            regulator={regulator}
            courseId={filter}
            deadlineDays={overview.deadlineDays}
          />
        </>
      )}
      <ConnectionCard regulator={regulator} />
    </>
  );
}
