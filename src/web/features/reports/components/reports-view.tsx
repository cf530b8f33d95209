import type { Reports } from "@contract";
import {
  ChartColumnIcon,
  DownloadIcon,
  GraduationCapIcon,
  PercentIcon,
  TrendingUpIcon,
  UsersIcon,
} from "lucide-react";
import { lazy, type ReactNode, Suspense } from "react";
import { EmailText } from "../../../components/email-text";
import { Button } from "../../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card";
import { EmptyState } from "../../../components/ui/empty-state";
import { ScrollRegion } from "../../../components/ui/scroll-region";
import { Skeleton } from "../../../components/ui/skeleton";
import { StatCard } from "../../../components/ui/stat-card";
import { loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { cn } from "../../../lib/utils";
import { REPORT_EXPORT_URL, useReports } from "../api/get-reports";

// Recharts is large: it loads with this page only, after the figures are on screen.
const CompletionRateChart = lazy(() =>
  import("./report-charts").then((m) => ({ default: m.CompletionRateChart })),
);
const CategoryEnrollmentsChart = lazy(() =>
  import("./report-charts").then((m) => ({ default: m.CategoryEnrollmentsChart })),
);

/** 'Export Report': downloads the CSV the server streams (cookies go with the request). */
export function ExportReportButton() {
  return (
    <Button asChild variant="outline">
      <a href={REPORT_EXPORT_URL} download>
        <DownloadIcon aria-hidden="true" />
        Export Report
      </a>
    </Button>
  );
}

/** /admin/reports body (SPEC section 2): summary, per course, per category, recent completions. */
export function ReportsView() {
  const { data: report, isPending, isError, error, refetch } = useReports();

  if (isError) {
    return (
      <EmptyState
        icon={<ChartColumnIcon />}
        title="Reports could not be loaded"
        description={loadFailureHint(error, "Check your connection and try again.")}
        action={
          <Button variant="outline" onClick={() => void refetch()}>
            Try again
          </Button>
        }
      />
    );
  }

  const s = report?.summary;
  return (
    <div className="grid grid-cols-1 gap-6">
      <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard label="Total Learners" value={s?.totalLearners} icon={<UsersIcon />} tone="sky" />
        <StatCard
          label="Total Enrollments"
          value={s?.totalEnrollments}
          icon={<GraduationCapIcon />}
          tone="indigo"
        />
        <StatCard
          label="Completion Rate"
          value={s ? `${s.completionRate}%` : undefined}
          hint={s ? `${s.completions} of ${s.totalEnrollments} enrollments` : undefined}
          icon={<PercentIcon />}
          tone="emerald"
        />
        <StatCard
          label="Avg. Progress"
          value={s ? `${s.avgProgress}%` : undefined}
          hint="Across all enrollments"
          icon={<TrendingUpIcon />}
          tone="violet"
        />
      </section>

      {isPending ? (
        <ReportsSkeleton />
      ) : (
        <>
          <CoursePerformance courses={report.courses} />
          <CategoryPerformance categories={report.categories} />
          <RecentCompletions completions={report.recentCompletions} />
        </>
      )}
    </div>
  );
}

function SectionCard({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={id} role="region">
      <CardHeader className="pb-2">
        <CardTitle id={id}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      {children}
    </Card>
  );
}

function CoursePerformance({ courses }: { courses: Reports["courses"] }) {
  const withEnrollments = courses.filter((c) => c.enrollments > 0);
  return (
    <SectionCard
      id="course-performance"
      title="Course Performance"
      description="Enrollments, completion rate and average progress per course, most enrolled first."
    >
      {courses.length === 0 ? (
        <p className="px-6 pt-4 pb-8 text-center text-sm text-zinc-600">No courses yet.</p>
      ) : (
        <>
          <div className="px-3 pt-2 pb-4 sm:px-5">
            <h3 className="px-1 pb-2 text-[13px] font-medium text-zinc-700">
              Completion rate by course
              {courses.length > 10 ? " (10 most enrolled)" : ""}
            </h3>
            {withEnrollments.length === 0 ? (
              <p className="rounded-xl bg-zinc-50 px-4 py-8 text-center text-sm text-zinc-600">
                The chart appears once learners are enrolled.
              </p>
            ) : (
              <Suspense fallback={<Skeleton className="h-48 w-full rounded-xl" />}>
                <CompletionRateChart courses={courses} />
              </Suspense>
            )}
          </div>
          <ReportTable
            caption="Course performance"
            head={["Course", "Enrollments", "Completions", "Completion rate", "Avg. progress"]}
            rows={courses.map((c) => ({
              key: c.courseId,
              cells: [
                <div key="title" className="grid min-w-40">
                  <span className="font-medium text-zinc-900">{c.title}</span>
                  <span className="text-xs text-zinc-600">{c.category}</span>
                </div>,
                c.enrollments,
                c.completions,
                <Meter key="rate" value={c.completionRate} tone="emerald" />,
                <Meter key="progress" value={c.avgProgress} tone="indigo" />,
              ],
            }))}
            testId="course-performance-table"
          />
        </>
      )}
    </SectionCard>
  );
}

function CategoryPerformance({ categories }: { categories: Reports["categories"] }) {
  const anyEnrollments = categories.some((c) => c.enrollments > 0);
  return (
    <SectionCard
      id="category-performance"
      title="Category Performance"
      description="How each category's courses are doing."
    >
      <div className="px-3 pt-2 pb-4 sm:px-5">
        <h3 className="px-1 pb-2 text-[13px] font-medium text-zinc-700">Enrollments by category</h3>
        {anyEnrollments ? (
          <Suspense fallback={<Skeleton className="h-60 w-full rounded-xl" />}>
            <CategoryEnrollmentsChart categories={categories} />
          </Suspense>
        ) : (
          <p className="rounded-xl bg-zinc-50 px-4 py-8 text-center text-sm text-zinc-600">
            The chart appears once learners are enrolled.
          </p>
        )}
      </div>
      <ReportTable
        caption="Category performance"
        head={["Category", "Courses", "Enrollments", "Completion rate", "Avg. progress"]}
        rows={categories.map((c) => ({
          key: c.category,
          cells: [
            <span key="name" className="font-medium text-zinc-900">
              {c.category}
            </span>,
            c.courses,
            c.enrollments,
            <Meter key="rate" value={c.completionRate} tone="emerald" />,
            <Meter key="progress" value={c.avgProgress} tone="indigo" />,
          ],
        }))}
        testId="category-performance-table"
      />
    </SectionCard>
  );
}

function RecentCompletions({ completions }: { completions: Reports["recentCompletions"] }) {
  const dates = useDates();
  return (
    <SectionCard
      id="recent-completions"
      title="Recent Completions"
      description="The 10 most recent course completions, newest first."
    >
      {completions.length === 0 ? (
        <p className="px-6 pt-4 pb-8 text-center text-sm text-zinc-600">
          No completions yet. They appear here as learners finish courses.
        </p>
      ) : (
        <ol className="grid px-2 pb-3 sm:px-3" data-testid="recent-completions">
          {completions.map((c) => (
            <li
              key={c.enrollmentId}
              className="flex flex-col gap-1 rounded-xl px-3 py-3 sm:flex-row sm:items-center sm:gap-4"
            >
              <span
                aria-hidden="true"
                className="hidden size-9 shrink-0 items-center justify-center rounded-full bg-emerald-50 text-emerald-700 sm:flex"
              >
                <GraduationCapIcon className="size-4" />
              </span>
              <div className="grid min-w-0 flex-1 gap-0.5">
                <p className="text-sm text-zinc-900">
                  <span className="font-medium">{c.learnerName}</span>
                  <span className="text-zinc-600"> completed </span>
                  <span className="font-medium">{c.courseTitle}</span>
                </p>
                <p className="text-xs text-zinc-600">
                  <EmailText email={c.learnerEmail} />
                </p>
              </div>
              <time
                dateTime={c.completedAt}
                className="shrink-0 text-xs text-zinc-600 tabular-nums sm:text-[13px]"
              >
                {dates.dateTime(c.completedAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </SectionCard>
  );
}

type TableRow = { key: string; cells: ReactNode[] };

function ReportTable({
  caption,
  head,
  rows,
  testId,
  className,
  minWidthClass = "min-w-[36rem]",
}: {
  caption: string;
  head: string[];
  rows: TableRow[];
  testId: string;
  className?: string;
  /** Below this width the table scrolls sideways inside its card. */
  minWidthClass?: string;
}) {
  return (
    <ScrollRegion
      aria-label={caption}
      className={cn("overflow-x-auto border-t border-zinc-100", className)}
      data-testid={testId}
    >
      <table className={cn("w-full text-left text-sm", minWidthClass)}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-zinc-100 text-xs text-zinc-600">
            {head.map((label, i) => (
              <th
                key={label}
                scope="col"
                className={cn(
                  "px-4 py-3 font-medium first:pl-5 last:pr-5 sm:first:pl-6 sm:last:pr-6",
                  i > 0 && "text-right",
                )}
              >
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-b border-zinc-100 last:border-b-0">
              {row.cells.map((cell, i) => {
                const Cell = i === 0 ? "th" : "td";
                return (
                  <Cell
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional columns.
                    key={i}
                    {...(i === 0 ? { scope: "row" } : {})}
                    className={cn(
                      "px-4 py-3 align-middle font-normal first:pl-5 last:pr-5 sm:first:pl-6 sm:last:pr-6",
                      i > 0 && "text-right text-zinc-800 tabular-nums",
                    )}
                  >
                    {cell}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function Meter({ value, tone }: { value: number; tone: "emerald" | "indigo" }) {
  return (
    <span className="inline-flex items-center justify-end gap-2">
      <span
        aria-hidden="true"
        className="hidden h-1.5 w-16 overflow-hidden rounded-full bg-zinc-200 sm:block"
      >
        <span
          className={cn(
            "block h-full rounded-full",
            tone === "emerald" ? "bg-emerald-500" : "bg-indigo-500",
          )}
          style={{ width: `${Math.max(0, Math.min(100, value))}%` }}
        />
      </span>
      <span className="w-10 text-right font-medium">{value}%</span>
    </span>
  );
}

function ReportsSkeleton() {
  return (
    <div className="grid grid-cols-1 gap-6" aria-hidden="true">
      <Skeleton className="h-80 rounded-2xl" />
      <Skeleton className="h-64 rounded-2xl" />
    </div>
  );
}
