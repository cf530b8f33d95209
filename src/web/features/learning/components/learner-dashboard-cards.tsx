import { COURSE_UNAVAILABLE, type EnrollmentWithRelations } from "@contract";
import { CircleCheckIcon, HistoryIcon, TrophyIcon } from "lucide-react";
import { Link } from "react-router";
import { CourseThumbnail } from "../../../components/course-thumbnail";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card";
import { Progress } from "../../../components/ui/progress";
import { useDates } from "../../../lib/dates";
import { cn } from "../../../lib/utils";
import { displayProgress, enrollmentStatus, type LearningSummary } from "../enrollment-status";

/** Beside the learner's courses on My Learning: how far they have come, and their level. */
export function OverallProgressCard({
  summary,
  className,
}: {
  summary: LearningSummary<EnrollmentWithRelations>;
  className?: string;
}) {
  const completedShare = summary.total
    ? Math.round((summary.completed.length / summary.total) * 100)
    : 0;
  return (
    <Card
      role="region"
      className={cn("overflow-hidden", className)}
      aria-labelledby="overall-progress-title"
    >
      <CardHeader>
        <CardTitle id="overall-progress-title">Overall progress</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-5">
          <div className="grid gap-2">
            <p className="flex items-baseline justify-between gap-3 text-sm">
              <span id="stat-completed-label" className="text-zinc-600">
                Courses completed
              </span>
              <span
                data-testid="stat-completed"
                className="font-semibold text-zinc-950 tabular-nums"
              >
                {summary.completed.length} of {summary.total}
              </span>
            </p>
            <Progress
              value={completedShare}
              aria-labelledby="stat-completed-label"
              className="[&>div]:bg-emerald-600"
            />
          </div>
          <div className="grid gap-2">
            <p className="flex items-baseline justify-between gap-3 text-sm">
              <span id="stat-average-label" className="text-zinc-600">
                Average progress
              </span>
              <span data-testid="stat-average" className="font-semibold text-zinc-950 tabular-nums">
                {summary.averageProgress}%
              </span>
            </p>
            <Progress value={summary.averageProgress} aria-labelledby="stat-average-label" />
          </div>
        </div>
        <div className="grid gap-2.5">
          <div className="flex items-center gap-3.5 rounded-xl bg-gradient-to-br from-indigo-600 to-violet-700 p-4 text-white">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-white/15 ring-1 ring-white/25">
              <TrophyIcon className="size-5" aria-hidden="true" />
            </span>
            <p className="grid min-w-0 gap-1">
              <span className="text-xs font-medium tracking-wide text-indigo-100 uppercase">
                Level
              </span>
              <span
                data-testid="stat-level"
                className="text-2xl leading-none font-semibold tabular-nums"
              >
                {summary.level}
              </span>
            </p>
          </div>
          <p className="text-xs leading-relaxed text-zinc-600">
            {summary.nextLevelAt === null
              ? "Top level reached. Outstanding work!"
              : `Reach ${summary.nextLevelAt}% average progress to unlock Level ${summary.level + 1}.`}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}

const STATUS_TEXT = {
  "not-started": "Not started",
  "in-progress": "In progress",
  completed: "Completed",
} as const;

/** The learner's latest courses, each a link to its player with where it stands. */
export function RecentActivityCard({
  enrollments,
  className,
}: {
  enrollments: EnrollmentWithRelations[];
  className?: string;
}) {
  const dates = useDates();
  return (
    <Card role="region" className={className} aria-labelledby="recent-activity-title">
      <CardHeader>
        <CardTitle id="recent-activity-title" className="flex items-center gap-2">
          <HistoryIcon className="size-4 text-zinc-500" aria-hidden="true" />
          Recent Activity
        </CardTitle>
      </CardHeader>
      <CardContent className="pt-3">
        {enrollments.length ? (
          <ul className="-mx-2 grid gap-1">
            {enrollments.map((enrollment) => {
              const status = enrollmentStatus(enrollment);
              return (
                <li key={enrollment.id}>
                  <Link
                    to={`/course/${encodeURIComponent(enrollment.courseId)}`}
                    className="flex items-center gap-3 rounded-lg p-2 transition-colors hover:bg-zinc-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                  >
                    <span className="size-10 shrink-0 overflow-hidden rounded-lg bg-zinc-100">
                      <CourseThumbnail
                        src={enrollment.course.thumbnail}
                        category={enrollment.course.category}
                        tone="vivid"
                        className="size-full"
                        iconClassName="size-1/4 max-h-12 max-w-12 min-h-5 min-w-5"
                      />
                    </span>
                    <span className="grid min-w-0 flex-1 gap-0.5">
                      <span className="truncate text-sm font-medium text-zinc-900">
                        {enrollment.course.title}
                      </span>
                      <span className="text-xs text-zinc-600">
                        {!enrollment.course.isPublished
                          ? `${COURSE_UNAVAILABLE.title} · taken offline for now`
                          : status === "completed"
                            ? `Completed ${dates.shortDate(enrollment.completedAt)}`
                            : status === "in-progress"
                              ? `${STATUS_TEXT[status]} · ${displayProgress(enrollment)}%`
                              : `${STATUS_TEXT[status]} · enrolled ${dates.shortDate(enrollment.createdAt)}`}
                      </span>
                    </span>
                    {status === "completed" ? (
                      <CircleCheckIcon
                        className="size-4 shrink-0 text-emerald-600"
                        aria-hidden="true"
                      />
                    ) : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="text-sm text-zinc-600">
            Your latest courses will show up here once you are enrolled.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
