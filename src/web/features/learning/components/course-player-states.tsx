import { MESSAGES } from "@contract";
import { RefreshCwIcon, SearchXIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { LearnerPageNotice } from "../../../components/ui/learner-page-notice";
import { Skeleton } from "../../../components/ui/skeleton";
import { loadFailureHint } from "../../../lib/api-client";

/** The course is missing, unpublished or not the learner's. */
export function CourseNotFound() {
  return (
    <LearnerPageNotice icon={SearchXIcon} title={MESSAGES.courseNotFound}>
      This course doesn't exist, isn't available yet, or you aren't enrolled in it. If you think
      this is a mistake, contact your administrator.
    </LearnerPageNotice>
  );
}

/** The course could not be read: a retry, and the way back. */
export function PlayerError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center rounded-2xl border border-red-200 bg-red-50/60 px-6 py-14 text-center"
    >
      <h1 className="text-xl font-semibold text-red-950">We couldn't load this course</h1>
      <p className="mt-2 max-w-sm text-sm text-red-900">
        {loadFailureHint(error, "Check your connection and try again.")} Your progress is safe.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Button variant="outline" onClick={onRetry}>
          <RefreshCwIcon aria-hidden="true" />
          Try again
        </Button>
        <Button asChild variant="ghost">
          <Link to="/learner">Back to my learning</Link>
        </Button>
      </div>
    </div>
  );
}

/** The player's layout while the course loads. */
export function PlayerSkeleton() {
  return (
    <div className="grid gap-6 sm:gap-8">
      <p role="status" className="sr-only">
        {MESSAGES.loadingCourse}
      </p>
      <div className="grid gap-4" aria-hidden="true">
        <Skeleton className="h-8 w-32" />
        <div className="flex flex-col gap-5 lg:flex-row lg:items-end lg:justify-between">
          <div className="grid gap-3">
            <Skeleton className="h-5 w-48 rounded-full" />
            <Skeleton className="h-8 w-72 max-w-full" />
          </div>
          <Skeleton className="h-9 w-full lg:w-80" />
        </div>
      </div>
      <div
        className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-8"
        aria-hidden="true"
      >
        <div className="grid gap-6">
          <Skeleton className="aspect-video w-full rounded-2xl" />
          <Skeleton className="h-40 w-full rounded-2xl" />
        </div>
        <Skeleton className="h-80 w-full rounded-2xl" />
      </div>
    </div>
  );
}
