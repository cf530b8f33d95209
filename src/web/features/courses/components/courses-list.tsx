import type { Course } from "@contract";
import {
  BookOpenIcon,
  CircleCheckIcon,
  ClockIcon,
  PencilLineIcon,
  PlusIcon,
  SearchXIcon,
} from "lucide-react";
import { useDeferredValue, useMemo, useState } from "react";
import { Button } from "../../../components/ui/button";
import { EmptyState } from "../../../components/ui/empty-state";
import { SearchField } from "../../../components/ui/search-field";
import { Skeleton } from "../../../components/ui/skeleton";
import { StatCard } from "../../../components/ui/stat-card";
import { loadFailureHint } from "../../../lib/api-client";
import { plural } from "../../../lib/format";
import { useCourses } from "../api/get-courses";
import { averageHours, matchesCourse } from "../course-figures";
import { COURSE_EMPTY_STATES } from "../messages";
import { CourseCard } from "./course-card";
import { EditCourseDialog } from "./edit-course-dialog";
import { useDeleteCourseAction } from "./use-delete-course-action";

/** /admin/courses body: counts, search and the course cards (SPEC section 2). */
export function CoursesList({ onCreateCourse }: { onCreateCourse: () => void }) {
  const { data: courses, isPending, isError, error, refetch } = useCourses();
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const { remove, deletingId, confirmDialog } = useDeleteCourseAction();
  // The edited course stays set while the dialog animates closed.
  const [editing, setEditing] = useState<{ course: Course; open: boolean } | null>(null);

  const visible = useMemo(
    () => (courses ?? []).filter((course) => matchesCourse(course, deferredQuery)),
    [courses, deferredQuery],
  );
  const published = courses?.filter((c) => c.isPublished).length;

  return (
    <div className="grid grid-cols-1 gap-6">
      <section
        aria-label="Course counts"
        className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4"
      >
        <StatCard
          label="Total courses"
          value={courses?.length}
          icon={<BookOpenIcon />}
          tone="indigo"
        />
        <StatCard label="Published" value={published} icon={<CircleCheckIcon />} tone="emerald" />
        <StatCard
          label="Drafts"
          value={courses && published !== undefined ? courses.length - published : undefined}
          icon={<PencilLineIcon />}
          tone="amber"
        />
        <StatCard
          label="Avg. duration"
          value={courses ? `${averageHours(courses)} h` : undefined}
          icon={<ClockIcon />}
          tone="sky"
        />
      </section>

      <SearchField
        value={query}
        onChange={setQuery}
        label="Search courses by title or category"
        placeholder="Search by title or category"
        className="max-w-md"
      />

      {isPending ? (
        <CourseGridSkeleton />
      ) : isError ? (
        <EmptyState
          icon={<BookOpenIcon />}
          title="Courses could not be loaded"
          description={loadFailureHint(error, "Check your connection and try again.")}
          action={
            <Button variant="outline" onClick={() => void refetch()}>
              Try again
            </Button>
          }
        />
      ) : courses.length === 0 ? (
        <EmptyState
          icon={<BookOpenIcon />}
          title={COURSE_EMPTY_STATES.none}
          description="Create your first course, add its video modules, then publish it for learners."
          action={
            <Button onClick={onCreateCourse}>
              <PlusIcon aria-hidden="true" />
              Create Course
            </Button>
          }
        />
      ) : visible.length === 0 ? (
        <EmptyState
          icon={<SearchXIcon />}
          title={COURSE_EMPTY_STATES.noMatch}
          description={`Nothing matches “${deferredQuery.trim()}”. Try another title or category.`}
          action={
            <Button variant="outline" onClick={() => setQuery("")}>
              Clear search
            </Button>
          }
        />
      ) : (
        <section aria-label="Courses">
          <p className="sr-only" aria-live="polite">
            {plural(visible.length, "course")} shown
          </p>
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 sm:gap-5 xl:grid-cols-3">
            {visible.map((course) => (
              <li key={course.id} className="grid">
                <CourseCard
                  course={course}
                  onEdit={(edited) => setEditing({ course: edited, open: true })}
                  onDelete={remove}
                  deleting={deletingId === course.id}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
      <EditCourseDialog
        course={editing?.course ?? null}
        open={editing?.open ?? false}
        onOpenChange={(open) => setEditing((current) => (current ? { ...current, open } : null))}
      />
      {confirmDialog}
    </div>
  );
}

function CourseGridSkeleton() {
  return (
    <div
      className="grid grid-cols-1 gap-4 sm:grid-cols-2 sm:gap-5 xl:grid-cols-3"
      aria-hidden="true"
    >
      {[0, 1, 2].map((i) => (
        <div key={i} className="overflow-hidden rounded-2xl border border-zinc-200 bg-white">
          <Skeleton className="aspect-[16/9] w-full rounded-none" />
          <div className="grid grid-cols-1 gap-2.5 p-5">
            <Skeleton className="h-3 w-20" />
            <Skeleton className="h-5 w-3/4" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        </div>
      ))}
    </div>
  );
}
