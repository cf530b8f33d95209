import type { Course } from "@contract";
import { Checkbox } from "../../../components/ui/checkbox";
import { Skeleton } from "../../../components/ui/skeleton";
import { cn } from "../../../lib/utils";

type CourseChecklistProps = {
  /** Courses one can pick; undefined while they load. */
  courses: Pick<Course, "id" | "title" | "category" | "modules">[] | undefined;
  selected: string[];
  onChange: (selected: string[]) => void;
  idPrefix: string;
  /** Shown when there is nothing to pick. */
  emptyText: string;
  disabled?: boolean;
  labelledBy?: string;
};

/** A scrollable checkbox list of courses (Add Learner and Enroll in courses dialogs). */
export function CourseChecklist({
  courses,
  selected,
  onChange,
  idPrefix,
  emptyText,
  disabled = false,
  labelledBy,
}: CourseChecklistProps) {
  if (courses === undefined) {
    return (
      <div
        className="grid grid-cols-1 gap-2 rounded-xl border border-zinc-200 p-3"
        aria-hidden="true"
      >
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-5 w-1/2" />
      </div>
    );
  }
  if (courses.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-zinc-300 px-4 py-5 text-center text-sm text-zinc-600">
        {emptyText}
      </p>
    );
  }
  const toggle = (id: string, checked: boolean) =>
    onChange(checked ? [...selected, id] : selected.filter((s) => s !== id));
  return (
    <ul
      aria-labelledby={labelledBy}
      className="grid max-h-56 overflow-y-auto rounded-xl border border-zinc-200 p-1"
    >
      {courses.map((course) => {
        const id = `${idPrefix}-${course.id}`;
        const checked = selected.includes(course.id);
        return (
          <li key={course.id}>
            <label
              htmlFor={id}
              className={cn(
                "flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 transition-colors hover:bg-zinc-50",
                checked && "bg-indigo-50/60 hover:bg-indigo-50",
                disabled && "cursor-not-allowed opacity-60",
              )}
            >
              <Checkbox
                id={id}
                checked={checked}
                disabled={disabled}
                onCheckedChange={(value) => toggle(course.id, value === true)}
              />
              <span className="grid min-w-0 flex-1">
                <span className="truncate text-sm font-medium text-zinc-900">{course.title}</span>
                <span className="text-xs text-zinc-600">
                  {course.category} · {course.modules.length}{" "}
                  {course.modules.length === 1 ? "module" : "modules"}
                </span>
              </span>
            </label>
          </li>
        );
      })}
    </ul>
  );
}
