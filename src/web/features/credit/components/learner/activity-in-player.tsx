import { CREDIT_MESSAGES } from "@contract";
import { ArrowRightIcon, InfoIcon, LockIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../../components/ui/button";
import { useActivity } from "../../api/get-activity";
import { useCourseCompletion } from "../../api/get-course-completion";
import { coursePaths, hasActivityContent, mustAcknowledge } from "../../credit-steps";
import { ExpiryBanner } from "./credit-page";

/**
 * Whether the player keeps the first module locked: the course asks learners to read and
 * acknowledge About this activity before starting, and this learner has not yet. The server
 * refuses a module's completion until then; the lock says why before the learner tries.
 * Unlocked while the activity loads, so a plain course never flashes a lock.
 */
export function useAcknowledgementLock(courseId: string, enrolled: boolean): boolean {
  // Asked only of an enrolled learner: anyone else is refused, and the player says so.
  const { data } = useActivity(courseId, { enabled: enrolled });
  return data ? mustAcknowledge(data) : false;
}

/** In place of the first module's video while it is locked. */
export function AcknowledgeFirstNotice({ courseId }: { courseId: string }) {
  return (
    <div
      data-testid="acknowledge-first"
      className="flex aspect-video w-full flex-col items-center justify-center gap-4 rounded-2xl bg-gradient-to-br from-zinc-900 to-indigo-950 px-6 py-8 text-center text-white"
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-white/10 ring-1 ring-white/20">
        <LockIcon className="size-5" aria-hidden="true" />
      </span>
      <p className="max-w-md text-sm leading-relaxed text-zinc-100 sm:text-[15px]">
        {CREDIT_MESSAGES.acknowledgeFirst}
      </p>
      <Button
        asChild
        variant="outline"
        className="border-transparent bg-white text-indigo-900 hover:border-transparent hover:bg-indigo-50 focus-visible:ring-white focus-visible:ring-offset-indigo-950"
      >
        <Link to={coursePaths.about(courseId)}>
          Read About this activity first
          <ArrowRightIcon aria-hidden="true" />
        </Link>
      </Button>
    </div>
  );
}

/**
 * Under the player's heading: the way to About this activity, for a course that has one, and
 * why credit can no longer be earned once the activity or the enrollment expired.
 */
export function ActivityPlayerNotes({ courseId }: { courseId: string }) {
  const { data } = useActivity(courseId);
  // A learner who completed the course has earned the credit: an expiry no longer concerns them.
  const completed = useCourseCompletion(courseId).data?.isCompleted ?? false;
  if (!data) return null;
  const expired = !completed && (data.courseExpired || (data.standing?.enrollmentExpired ?? false));
  if (!hasActivityContent(data) && !expired) return null;
  return (
    <div className="grid gap-3">
      {hasActivityContent(data) ? (
        <Button asChild variant="link" size="sm" className="w-fit text-[13px]">
          <Link to={coursePaths.about(courseId)} data-testid="about-activity-link">
            <InfoIcon aria-hidden="true" />
            About this activity
          </Link>
        </Button>
      ) : null}
      {expired ? (
        <ExpiryBanner
          courseExpired={data.courseExpired}
          enrollmentExpired={data.standing?.enrollmentExpired ?? false}
        />
      ) : null}
    </div>
  );
}
