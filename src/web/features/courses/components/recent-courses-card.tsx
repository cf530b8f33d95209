import { DASHBOARD_RECENT_ITEMS } from "@contract";
import { BookOpenIcon, PencilIcon, PlusIcon } from "lucide-react";
import { Link } from "react-router";
import { CourseThumbnail } from "../../../components/course-thumbnail";
import { RecentItemsCard } from "../../../components/recent-items-card";
import { Button } from "../../../components/ui/button";
import { SimpleTooltip } from "../../../components/ui/tooltip";
import { useDates } from "../../../lib/dates";
import { plural } from "../../../lib/format";
import { useCourses } from "../api/get-courses";
import { COURSE_EMPTY_STATES } from "../messages";
import { CourseStatusBadge } from "./course-status-badge";
import { DeleteCourseButton } from "./delete-course-button";
import { useDeleteCourseAction } from "./use-delete-course-action";

/** Dashboard 'Recent Courses': the first 3 courses with edit and delete (SPEC section 2). */
export function RecentCoursesCard({ onCreateCourse }: { onCreateCourse: () => void }) {
  const dates = useDates();
  const query = useCourses();
  const { remove, deletingId, confirmDialog } = useDeleteCourseAction();
  const recent = query.data?.slice(0, DASHBOARD_RECENT_ITEMS) ?? [];

  return (
    <RecentItemsCard
      title="Recent Courses"
      titleId="recent-courses-title"
      viewAllTo="/admin/courses"
      query={query}
      failure="Courses could not be loaded."
      skeleton={{ media: "h-11 w-16 rounded-lg", lines: ["w-2/3", "w-1/3"] }}
      empty={
        recent.length === 0
          ? {
              icon: <BookOpenIcon className="size-5" aria-hidden="true" />,
              text: COURSE_EMPTY_STATES.none,
              action: (
                <Button size="sm" variant="outline" onClick={onCreateCourse}>
                  <PlusIcon aria-hidden="true" />
                  Create Course
                </Button>
              ),
            }
          : undefined
      }
      after={confirmDialog}
    >
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
              <DeleteCourseButton
                title={course.title}
                disabled={deletingId === course.id}
                onDelete={() => remove(course)}
              />
            </div>
          </li>
        );
      })}
    </RecentItemsCard>
  );
}
