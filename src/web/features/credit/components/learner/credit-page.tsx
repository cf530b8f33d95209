import { CREDIT_MESSAGES, MESSAGES } from "@contract";
import { ArrowLeftIcon, CalendarXIcon, SearchXIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "../../../../components/ui/button";
import { LearnerPageNotice } from "../../../../components/ui/learner-page-notice";
import { PageLoadError } from "../../../../components/ui/page-load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { isApiError } from "../../../../lib/api-client";
import { cn } from "../../../../lib/utils";
import { coursePaths } from "../../credit-steps";

/** The frame of a credit-claim screen: the way back to the course, the heading, the content. */
export function CreditPage({
  courseId,
  courseTitle,
  title,
  description,
  children,
}: {
  courseId: string;
  courseTitle?: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 sm:gap-8">
      <header className="grid gap-3">
        <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit max-w-full text-zinc-600">
          <Link to={coursePaths.player(courseId)}>
            <ArrowLeftIcon aria-hidden="true" />
            <span className="truncate">{courseTitle ?? "Course"}</span>
          </Link>
        </Button>
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-950 sm:text-[28px]">
            {title}
          </h1>
          {description ? (
            <p className="text-sm text-zinc-600 sm:text-[15px]">{description}</p>
          ) : null}
        </div>
      </header>
      {children}
    </div>
  );
}

/** Why the learner can no longer earn credit: the activity or their enrollment has expired. */
export function ExpiryBanner({
  courseExpired,
  enrollmentExpired,
  className,
}: {
  courseExpired: boolean;
  enrollmentExpired: boolean;
  className?: string;
}) {
  const messages: string[] = [];
  if (courseExpired) messages.push(CREDIT_MESSAGES.courseExpired);
  if (enrollmentExpired) messages.push(CREDIT_MESSAGES.enrollmentExpired);
  if (!messages.length) return null;
  return (
    <div
      role="status"
      data-testid="credit-expired"
      className={cn(
        "flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950",
        className,
      )}
    >
      <CalendarXIcon className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
      <div className="grid gap-1">
        {messages.map((m) => (
          <p key={m} className="font-medium">
            {m}
          </p>
        ))}
      </div>
    </div>
  );
}

export function CreditPageSkeleton() {
  return (
    <div className="grid gap-6">
      <p role="status" className="sr-only">
        Loading...
      </p>
      <div aria-hidden="true" className="grid gap-6">
        <Skeleton className="h-40 w-full rounded-2xl" />
        <Skeleton className="h-64 w-full rounded-2xl" />
      </div>
    </div>
  );
}

/** A screen whose data could not be read, with a way to try again. */
export function CreditPageError({
  what,
  error,
  onRetry,
}: {
  what: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <PageLoadError
      title={`We couldn't load ${what}`}
      error={error}
      safe="Your progress is safe."
      onRetry={onRetry}
    />
  );
}

/**
 * Whether a read was refused because the course is out of this learner's reach: unknown,
 * unpublished or gone (404), or not theirs (403, e.g. `enrollments.not_enrolled`).
 */
export function courseOutOfReach(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 403);
}

/** The course is unknown to this learner (not enrolled, unpublished or gone). */
export function CreditCourseNotFound() {
  return (
    <LearnerPageNotice icon={SearchXIcon} title={MESSAGES.courseNotFound}>
      This course doesn't exist, isn't available yet, or you aren't enrolled in it.
    </LearnerPageNotice>
  );
}
