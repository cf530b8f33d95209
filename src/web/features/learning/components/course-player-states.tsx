import { MESSAGES } from "@contract";
import { SearchXIcon } from "lucide-react";
import { LearnerPageNotice } from "../../../components/ui/learner-page-notice";
import { Skeleton } from "../../../components/ui/skeleton";

/** The course is missing, unpublished or not the learner's. */
export function CourseNotFound() {
  return (
    <LearnerPageNotice icon={SearchXIcon} title={MESSAGES.courseNotFound}>
      This course doesn't exist, isn't available yet, or you aren't enrolled in it. If you think
      this is a mistake, contact your administrator.
    </LearnerPageNotice>
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
