import type { Course } from "@contract";
import { AwardIcon, BadgeCheckIcon, ShieldCheckIcon } from "lucide-react";

/** "1.5 credit hours", "1 credit hour (CME)": the course's credit, or null without any. */
function creditLabel(course: Pick<Course, "creditHours" | "creditType">): string | null {
  if (course.creditHours === null) return null;
  const hours = `${course.creditHours} credit hour${course.creditHours === 1 ? "" : "s"}`;
  return course.creditType ? `${hours} (${course.creditType})` : hours;
}

/**
 * The credit a course carries and who accredits it, as small meta items
 * for the learner's card (compact) and the player's header (with the accreditation).
 */
export function CourseCredit({ course, compact = false }: { course: Course; compact?: boolean }) {
  const label = creditLabel(course);
  const accreditation = [
    course.accreditingBody ? `Accredited by ${course.accreditingBody}` : null,
    course.providerNumber ? `Provider ${course.providerNumber}` : null,
  ].filter(Boolean);
  return (
    <>
      {label ? (
        <span className="inline-flex items-center gap-1" data-testid="course-credit">
          <AwardIcon className="size-3.5" aria-hidden="true" />
          {label}
        </span>
      ) : null}
      {!compact && accreditation.length ? (
        <span className="inline-flex items-center gap-1" data-testid="course-accreditation">
          <ShieldCheckIcon className="size-3.5" aria-hidden="true" />
          {accreditation.join(" · ")}
        </span>
      ) : null}
      {!compact && course.completionPolicy === "verified" ? (
        <span className="inline-flex items-center gap-1 font-medium text-indigo-700">
          <BadgeCheckIcon className="size-3.5" aria-hidden="true" />
          Verified watching
        </span>
      ) : null}
    </>
  );
}
