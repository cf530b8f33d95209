import type { Course } from "@contract";
import { ArrowRightIcon, CalendarIcon, ClockIcon, LayersIcon, PencilIcon } from "lucide-react";
import { Link } from "react-router";
import { CourseThumbnail } from "../../../components/course-thumbnail";
import { Button } from "../../../components/ui/button";
import { SimpleTooltip } from "../../../components/ui/tooltip";
import { useDates } from "../../../lib/dates";
import { plural } from "../../../lib/format";
import { CourseStatusBadge } from "./course-status-badge";
import { DeleteCourseButton } from "./delete-course-button";

/** One course in the admin list: thumbnail, status, category, figures and actions. */
export function CourseCard({
  course,
  onEdit,
  onDelete,
  deleting = false,
}: {
  course: Course;
  onEdit: (course: Course) => void;
  onDelete: (course: Course) => void;
  deleting?: boolean;
}) {
  const dates = useDates();
  const href = `/admin/courses/${encodeURIComponent(course.id)}`;
  const headingId = `course-${course.id}-title`;
  return (
    <article
      aria-labelledby={headingId}
      data-testid="course-card"
      className="group flex flex-col overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-xs shadow-zinc-950/5 transition-shadow hover:shadow-md hover:shadow-zinc-950/5"
    >
      <div className="relative">
        <CourseThumbnail
          src={course.thumbnail}
          category={course.category}
          className="aspect-[5/2] w-full sm:aspect-[16/9]"
          iconClassName="size-10"
        />
        <CourseStatusBadge
          isPublished={course.isPublished}
          className="absolute top-3 left-3 shadow-sm"
        />
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4 sm:p-5">
        <div className="grid grid-cols-1 gap-1">
          <p className="text-xs font-semibold tracking-wide text-indigo-700 uppercase">
            {course.category}
          </p>
          <h3
            id={headingId}
            className="line-clamp-2 text-base leading-snug font-semibold text-zinc-950"
          >
            {course.title}
          </h3>
          <p className="line-clamp-2 text-sm text-zinc-600">{course.description}</p>
        </div>
        <dl className="mt-auto flex flex-wrap gap-x-4 gap-y-1.5 text-[13px] text-zinc-600">
          <div className="flex items-center gap-1.5">
            <dt className="sr-only">Duration</dt>
            <ClockIcon className="size-3.5 text-zinc-500" aria-hidden="true" />
            <dd>{plural(course.duration, "hour")}</dd>
          </div>
          <div className="flex items-center gap-1.5">
            <dt className="sr-only">Modules</dt>
            <LayersIcon className="size-3.5 text-zinc-500" aria-hidden="true" />
            <dd>{plural(course.modules.length, "module")}</dd>
          </div>
          <div className="flex items-center gap-1.5">
            <dt className="sr-only">Created</dt>
            <CalendarIcon className="size-3.5 text-zinc-500" aria-hidden="true" />
            <dd>{dates.date(course.createdAt)}</dd>
          </div>
        </dl>
      </div>
      <div className="flex items-center gap-1 border-t border-zinc-100 px-3 py-2.5 sm:px-4">
        <Button asChild variant="ghost" size="sm" className="mr-auto text-indigo-700">
          <Link to={href} aria-label={`View ${course.title}`}>
            View
            <ArrowRightIcon aria-hidden="true" />
          </Link>
        </Button>
        <SimpleTooltip content="Edit course">
          <Button
            variant="ghost"
            size="icon-sm"
            className="text-zinc-600"
            aria-label={`Edit ${course.title}`}
            onClick={() => onEdit(course)}
          >
            <PencilIcon aria-hidden="true" />
          </Button>
        </SimpleTooltip>
        <DeleteCourseButton
          title={course.title}
          disabled={deleting}
          onDelete={() => onDelete(course)}
        />
      </div>
    </article>
  );
}
