import type { Course } from "@contract";
import { ArrowLeftIcon, LayersIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { Progress } from "../../../components/ui/progress";
import { plural } from "../../../lib/format";
import { cn } from "../../../lib/utils";
import { CourseCredit, CourseLength, CourseSubject } from "./course-credit";

/**
 * The course player's heading: the way back to My learning, what the course is (subject,
 * modules, length, credit), its title, and how far the learner has come.
 */
export function CoursePlayerHeader({
  course,
  completedCount,
  percent,
  isCompleted,
  extra,
}: {
  course: Course;
  completedCount: number;
  percent: number;
  isCompleted: boolean;
  /** Under the title (the player's `renderHeaderExtra`). */
  extra?: ReactNode;
}) {
  const count = course.modules.length;
  return (
    <header className="grid gap-4">
      <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-zinc-600">
        <Link to="/learner">
          <ArrowLeftIcon aria-hidden="true" />
          My learning
        </Link>
      </Button>
      <div className="flex flex-col gap-5 lg:flex-row lg:items-end lg:justify-between lg:gap-10">
        <div className="grid min-w-0 gap-2.5">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-zinc-600">
            <CourseSubject course={course} />
            <span className="inline-flex items-center gap-1">
              <LayersIcon className="size-3.5" aria-hidden="true" />
              {plural(count, "module")}
            </span>
            <CourseLength course={course} />
            <CourseCredit course={course} />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight text-balance text-zinc-950 sm:text-[28px]">
            {course.title}
          </h1>
          {extra ? <div className="empty:hidden">{extra}</div> : null}
        </div>
        <div className="grid w-full shrink-0 gap-2 lg:w-80">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="text-zinc-600" data-testid="course-progress-text">
              {completedCount} of {count} modules completed
            </span>
            <span
              className="font-semibold text-zinc-950 tabular-nums"
              data-testid="course-progress"
            >
              {percent}%
            </span>
          </div>
          <Progress
            value={percent}
            aria-label="Course progress"
            className={cn("h-2.5", isCompleted && "[&>div]:bg-emerald-600")}
          />
        </div>
      </div>
    </header>
  );
}
