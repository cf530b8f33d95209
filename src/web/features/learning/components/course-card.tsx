import {
  COMPLETION_STEP_LABELS,
  COURSE_UNAVAILABLE,
  type EnrollmentWithRelations,
} from "@contract";
import {
  ArrowRightIcon,
  CircleCheckIcon,
  GraduationCapIcon,
  LayersIcon,
  RotateCcwIcon,
} from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { CourseThumbnail } from "../../../components/course-thumbnail";
import { Button } from "../../../components/ui/button";
import { Progress } from "../../../components/ui/progress";
import { Skeleton } from "../../../components/ui/skeleton";
import { plural } from "../../../lib/format";
import { cn } from "../../../lib/utils";
import { displayProgress, enrollmentStatus } from "../enrollment-status";
import { CourseCredit, CourseLength, CourseSubject } from "./course-credit";
import { CourseUnavailableNote } from "./course-unavailable";

const ACTION_LABEL = {
  "not-started": "Start",
  "in-progress": "Continue",
  completed: "Review",
} as const;

/**
 * The card's way in, given its default (Start, Continue, Review or the final exam): another
 * step of completion may lead elsewhere (e.g. "Next: Evaluation").
 */
export type CourseCardAction = (
  enrollment: EnrollmentWithRelations,
  defaultAction: ReactNode,
) => ReactNode;

/** A course the learner is enrolled in: thumbnail, category, progress and the way in. */
export function CourseCard({
  enrollment,
  action,
}: {
  enrollment: EnrollmentWithRelations;
  action?: CourseCardAction;
}) {
  const { course } = enrollment;
  const status = enrollmentStatus(enrollment);
  const percent = displayProgress(enrollment);
  const titleId = `course-card-${enrollment.id}`;
  // Progress follows the modules; a course with a final exam completes only when it is
  // passed, so every module done without completion means the exam is the next step.
  const examPending = status === "in-progress" && enrollment.progress >= 100;
  const defaultAction = <CardAction enrollment={enrollment} />;
  // Taken offline by the provider: the card stays (progress is kept) but leads nowhere.
  const offline = !course.isPublished;

  return (
    <article
      aria-labelledby={titleId}
      data-testid="course-card"
      className="group flex flex-col overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-xs shadow-zinc-950/5 transition-shadow hover:shadow-md hover:shadow-zinc-950/5"
    >
      <div className="relative aspect-video overflow-hidden bg-zinc-100">
        <CourseThumbnail
          src={course.thumbnail}
          category={course.category}
          tone="vivid"
          className="size-full transition-transform duration-300 group-hover:scale-[1.02]"
          iconClassName="size-1/4 max-h-12 max-w-12 min-h-5 min-w-5"
        />
        {offline ? (
          <span className="absolute top-3 left-3 inline-flex items-center gap-1 rounded-full bg-white/95 px-2.5 py-1 text-xs font-semibold text-zinc-800 shadow-sm">
            {COURSE_UNAVAILABLE.title}
          </span>
        ) : status === "completed" ? (
          <span className="absolute top-3 left-3 inline-flex items-center gap-1 rounded-full bg-white/95 px-2.5 py-1 text-xs font-semibold text-emerald-800 shadow-sm">
            <CircleCheckIcon className="size-3.5 text-emerald-600" aria-hidden="true" />
            Completed
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4 sm:p-5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-zinc-600">
          <CourseSubject course={course} />
          <span className="inline-flex items-center gap-1">
            <LayersIcon className="size-3.5" aria-hidden="true" />
            {plural(course.modules.length, "module")}
          </span>
          <CourseLength course={course} />
          <CourseCredit course={course} compact />
        </div>
        <div className="grid gap-1">
          <h3
            id={titleId}
            className="line-clamp-2 text-[15px] leading-snug font-semibold text-zinc-950"
          >
            {course.title}
          </h3>
          <p className="line-clamp-2 text-sm leading-relaxed text-zinc-600">{course.description}</p>
        </div>
        <div className="mt-auto grid gap-2 pt-1">
          <div className="flex items-center justify-between text-xs">
            <span className="font-medium text-zinc-700">
              {status === "not-started"
                ? "Not started"
                : status === "completed"
                  ? "Completed"
                  : examPending
                    ? "Modules complete"
                    : "In progress"}
            </span>
            <span className="font-semibold text-zinc-900 tabular-nums">{percent}%</span>
          </div>
          <Progress
            value={percent}
            aria-label={`${course.title} progress`}
            className={cn(status === "completed" && "[&>div]:bg-emerald-600")}
          />
        </div>
        {offline ? (
          <CourseUnavailableNote />
        ) : action ? (
          action(enrollment, defaultAction)
        ) : (
          defaultAction
        )}
      </div>
    </article>
  );
}

/** Start, Continue or Review; the final exam once every module is done without completion. */
function CardAction({ enrollment }: { enrollment: EnrollmentWithRelations }) {
  const { course } = enrollment;
  const status = enrollmentStatus(enrollment);
  const examPending = status === "in-progress" && enrollment.progress >= 100;
  if (examPending) {
    return (
      <Button asChild className="mt-1 w-full">
        <Link to={`/courses/${encodeURIComponent(course.id)}/exam`}>
          <GraduationCapIcon aria-hidden="true" />
          {COMPLETION_STEP_LABELS.exam}
          <span className="sr-only"> of {course.title}</span>
          <ArrowRightIcon aria-hidden="true" />
        </Link>
      </Button>
    );
  }
  return (
    <Button
      asChild
      variant={status === "completed" ? "outline" : "default"}
      className="mt-1 w-full"
    >
      <Link to={`/course/${encodeURIComponent(course.id)}`}>
        {status === "completed" ? <RotateCcwIcon aria-hidden="true" /> : null}
        {ACTION_LABEL[status]}
        <span className="sr-only"> {course.title}</span>
        {status === "completed" ? null : <ArrowRightIcon aria-hidden="true" />}
      </Link>
    </Button>
  );
}

export function CourseCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border border-zinc-200 bg-white">
      <Skeleton className="aspect-video rounded-none" />
      <div className="grid gap-3 p-4 sm:p-5">
        <Skeleton className="h-5 w-24 rounded-full" />
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="mt-2 h-2 w-full rounded-full" />
        <Skeleton className="mt-1 h-10 w-full rounded-lg" />
      </div>
    </div>
  );
}
