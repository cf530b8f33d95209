import { DASHBOARD_RECENT_ITEMS } from "@contract";
import { ArrowRightIcon, BookOpenIcon, PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { Link } from "react-router";
import { CourseThumbnail } from "../../../components/course-thumbnail";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader, CardTitle } from "../../../components/ui/card";
import { Skeleton } from "../../../components/ui/skeleton";
import { SimpleTooltip } from "../../../components/ui/tooltip";
import { loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { plural } from "../../../lib/format";
import { useCourses } from "../api/get-courses";
import { COURSE_EMPTY_STATES } from "../messages";
import { CourseStatusBadge } from "./course-status-badge";
import { useDeleteCourseAction } from "./use-delete-course-action";

/** Dashboard 'Recent Courses': the first 3 courses with edit and delete (SPEC section 2). */
export function RecentCoursesCard({ onCreateCourse }: { onCreateCourse: () => void }) {
  const dates = useDates();
  const { data: courses, isPending, isError, error } = useCourses();
  const { remove, deletingId, confirmDialog } = useDeleteCourseAction();
  const recent = courses?.slice(0, DASHBOARD_RECENT_ITEMS) ?? [];

  return (
    <Card className="flex flex-col">
      <CardHeader className="flex flex-row items-center justify-between gap-3 pb-1 sm:pb-2">
        <CardTitle id="recent-courses-title">Recent Courses</CardTitle>
        <Button asChild variant="ghost" size="sm" className="-mr-2 text-indigo-700">
          <Link to="/admin/courses">
            View all
            <ArrowRightIcon aria-hidden="true" />
          </Link>
        </Button>
      </CardHeader>
      <div className="flex-1 px-2 pb-3 sm:px-3">
        {isPending ? (
          <ul aria-hidden="true" className="grid">
            {[0, 1, 2].map((i) => (
              <li key={i} className="flex items-center gap-3 p-3">
                <Skeleton className="h-11 w-16 rounded-lg" />
                <div className="grid flex-1 gap-2">
                  <Skeleton className="h-4 w-2/3" />
                  <Skeleton className="h-3 w-1/3" />
                </div>
              </li>
            ))}
          </ul>
        ) : isError ? (
          <p className="px-3 py-8 text-center text-sm text-zinc-600">
            {loadFailureHint(error, "Courses could not be loaded.")}
          </p>
        ) : recent.length === 0 ? (
          <div className="flex flex-col items-center gap-3 px-3 py-8 text-center">
            <span className="flex size-10 items-center justify-center rounded-full bg-zinc-100 text-zinc-500">
              <BookOpenIcon className="size-5" aria-hidden="true" />
            </span>
            <p className="text-sm text-zinc-600">{COURSE_EMPTY_STATES.none}</p>
            <Button size="sm" variant="outline" onClick={onCreateCourse}>
              <PlusIcon aria-hidden="true" />
              Create Course
            </Button>
          </div>
        ) : (
          <ul aria-labelledby="recent-courses-title" className="grid">
            {recent.map((course) => {
              const href = `/admin/courses/${encodeURIComponent(course.id)}`;
              return (
                <li
                  key={course.id}
                  className="flex items-center gap-3 rounded-xl p-2.5 transition-colors hover:bg-zinc-50 sm:p-3"
                >
                  <CourseThumbnail
                    src={course.thumbnail}
                    category={course.category}
                    className="h-11 w-16 shrink-0 rounded-lg"
                    iconClassName="size-5"
                  />
                  <div className="grid min-w-0 flex-1 gap-1">
                    <Link
                      to={href}
                      className="truncate text-sm font-medium text-zinc-900 hover:text-indigo-700 hover:underline focus-visible:rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                    >
                      {course.title}
                    </Link>
                    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-600">
                      <CourseStatusBadge
                        isPublished={course.isPublished}
                        className="px-2 py-0 text-[11px]"
                      />
                      <span>{course.category}</span>
                      <span>{plural(course.modules.length, "module")}</span>
                      <span className="hidden sm:inline">{dates.date(course.createdAt)}</span>
                    </p>
                  </div>
                  <div className="flex shrink-0 items-center">
                    <SimpleTooltip content="Edit course">
                      <Button asChild variant="ghost" size="icon-sm" className="text-zinc-600">
                        <Link to={href} aria-label={`Edit ${course.title}`}>
                          <PencilIcon aria-hidden="true" />
                        </Link>
                      </Button>
                    </SimpleTooltip>
                    <SimpleTooltip content="Delete course">
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        className="text-zinc-600 hover:bg-red-50 hover:text-red-700"
                        aria-label={`Delete ${course.title}`}
                        disabled={deletingId === course.id}
                        onClick={() => remove(course)}
                      >
                        <Trash2Icon aria-hidden="true" />
                      </Button>
                    </SimpleTooltip>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {confirmDialog}
    </Card>
  );
}
