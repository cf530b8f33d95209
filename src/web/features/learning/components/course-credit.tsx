import { type Course, creditBodiesOf, offeredCreditText } from "@contract";
import { AwardIcon, BadgeCheckIcon, ShieldCheckIcon } from "lucide-react";

/**
 * The credit a course carries and who accredits it, as small meta items
 * for the learner's card (compact) and the player's header (with the accreditation).
 */
export function CourseCredit({ course, compact = false }: { course: Course; compact?: boolean }) {
  // "Up to 1 contact hour · Up to 1 CPE credit": each type the learner may claim, never summed.
  const label = course.creditTypes.length ? offeredCreditText(course.creditTypes) : null;
  const accreditation = creditBodiesOf(course.creditTypes).map((b) =>
    b.providerNumber
      ? `Accredited by ${b.name} · Provider ${b.providerNumber}`
      : `Accredited by ${b.name}`,
  );
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
