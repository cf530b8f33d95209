import { COURSE_UNAVAILABLE } from "@contract";
import { CloudOffIcon } from "lucide-react";
import { LearnerPageNotice } from "../../../components/ui/learner-page-notice";

/**
 * A course the learner is enrolled in that the provider has taken offline (unpublished):
 * their records stay, but it cannot be opened until it is published again.
 */
export function CourseUnavailableNote() {
  return (
    <p
      data-testid="course-unavailable"
      className="mt-1 flex items-start gap-2 rounded-lg bg-zinc-100 px-3 py-2.5 text-sm leading-snug text-zinc-700"
    >
      <CloudOffIcon className="mt-0.5 size-4 shrink-0 text-zinc-500" aria-hidden="true" />
      <span>
        <strong className="font-semibold text-zinc-900">{COURSE_UNAVAILABLE.title}</strong> —{" "}
        {COURSE_UNAVAILABLE.description.charAt(0).toLowerCase()}
        {COURSE_UNAVAILABLE.description.slice(1)}
      </span>
    </p>
  );
}

/** The player's page for such a course, opened from a bookmark or an old link. */
export function CourseUnavailable({ title }: { title: string }) {
  return (
    <LearnerPageNotice icon={CloudOffIcon} title={<>{title} is unavailable</>}>
      {COURSE_UNAVAILABLE.description} Your progress is saved: you can continue where you left off
      once it is back.
    </LearnerPageNotice>
  );
}
