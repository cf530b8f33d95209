import {
  type Course,
  courseCreditText,
  courseProfessions,
  creditBodiesOf,
  offeredCreditText,
} from "@contract";
import { AwardIcon, BadgeCheckIcon, ClockIcon, ShieldCheckIcon } from "lucide-react";
import { Badge } from "../../../components/ui/badge";
import { plural } from "../../../lib/format";

/**
 * What a course is in: a credit course names the profession its credit serves, never the
 * spec's coding category (a nurse's course is not "Development"); nothing when the catalogue
 * names no profession.
 */
export function CourseSubject({ course }: { course: Course }) {
  const subject = course.creditTypes.length ? courseProfessions(course) : course.category;
  return subject ? <Badge variant="secondary">{subject}</Badge> : null;
}

/**
 * The spec's whole-hour duration, for a course without credit only: beside credit it would
 * be read against it ("2 hours · 1.5 contact hours").
 */
export function CourseLength({ course }: { course: Course }) {
  if (course.creditTypes.length) return null;
  return (
    <span className="inline-flex items-center gap-1">
      <ClockIcon className="size-3.5" aria-hidden="true" />
      {plural(course.duration, "hour")}
    </span>
  );
}

/** "1.5 contact hours · Nursing", or for a course without credit "2 hours · Development". */
export function courseFacts(course: Course): string {
  if (!course.creditTypes.length) return `${plural(course.duration, "hour")} · ${course.category}`;
  return [courseCreditText(course), courseProfessions(course)].filter(Boolean).join(" · ");
}

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
