import type { EnrollmentWithRelations, User } from "@contract";
import { AwardIcon, BookOpenIcon, CircleCheckIcon, CirclePlayIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { PageHeader } from "../../../components/page-header";
import { Button } from "../../../components/ui/button";
import { EmptyState } from "../../../components/ui/empty-state";
import { PageLoadError } from "../../../components/ui/page-load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs";
import { useDates } from "../../../lib/dates";
import { greetingName, sentence } from "../../../lib/format";
import { useMyEnrollments } from "../api/get-my-enrollments";
import { summarizeLearning } from "../enrollment-status";
import { CourseCard, type CourseCardAction, CourseCardSkeleton } from "./course-card";
import { courseFacts } from "./course-credit";
import { OverallProgressCard, RecentActivityCard } from "./learner-dashboard-cards";

type CertificateAction = (enrollment: EnrollmentWithRelations) => ReactNode;

const TABS = ["courses", "continue", "completed", "certificates"] as const;
type Tab = (typeof TABS)[number];

/**
 * The greeting fits where the learner stands: "Welcome back … pick up where you left off"
 * only once there is something to pick up.
 */
function welcomeLine(name: string, enrollments: EnrollmentWithRelations[] | undefined) {
  const welcome = sentence(`Welcome, ${name}`);
  if (!enrollments) return welcome;
  if (enrollments.length === 0) {
    return `${welcome} Your courses will appear here once an administrator enrolls you.`;
  }
  if (enrollments.every((e) => e.progress === 0 && !e.isCompleted)) {
    return `${welcome} Your courses are ready: start with the first one below.`;
  }
  return `${sentence(`Welcome back, ${name}`)} Pick up where you left off.`;
}

/**
 * SPEC section 2 "Learner dashboard": the four tabs with their counts and empty states,
 * the overall progress with the Level, and Recent Activity (the first 3 enrollments).
 */
export function LearnerDashboard({
  user,
  certificateAction,
  certificateCredit,
  courseAction,
  renderTop,
}: {
  user: User;
  /** The certificate download control for a completed enrollment (certificates feature). */
  certificateAction: CertificateAction;
  /**
   * The credit a completed enrollment's certificate holds, as the learner claimed it, and
   * whom it serves (certificates feature); a credit course's line then says only when.
   */
  certificateCredit?: CertificateAction;
  /** A course card's way in when other steps of completion lead elsewhere. */
  courseAction?: CourseCardAction;
  /** Above the tabs: the learner's next steps that wait on screens of their own. */
  renderTop?: (enrollments: EnrollmentWithRelations[]) => ReactNode;
}) {
  const enrollmentsQuery = useMyEnrollments(user.id);
  const firstName = greetingName(user.name);

  return (
    <div className="grid gap-6 sm:gap-8">
      <PageHeader title="My learning" description={welcomeLine(firstName, enrollmentsQuery.data)} />
      {enrollmentsQuery.isPending ? (
        <DashboardSkeleton />
      ) : enrollmentsQuery.isError ? (
        <PageLoadError
          title="We couldn't load your courses"
          error={enrollmentsQuery.error}
          safe="Your progress is safe."
          onRetry={() => void enrollmentsQuery.refetch()}
        />
      ) : (
        <>
          {renderTop ? (
            <div className="empty:hidden">{renderTop(enrollmentsQuery.data)}</div>
          ) : null}
          <DashboardContent
            // A course taken offline stays listed (the learner's record), shown as unavailable.
            enrollments={enrollmentsQuery.data}
            certificateAction={certificateAction}
            certificateCredit={certificateCredit}
            courseAction={courseAction}
          />
        </>
      )}
    </div>
  );
}

function DashboardContent({
  enrollments,
  certificateAction,
  certificateCredit,
  courseAction,
}: {
  enrollments: EnrollmentWithRelations[];
  certificateAction: CertificateAction;
  certificateCredit?: CertificateAction;
  courseAction?: CourseCardAction;
}) {
  const summary = summarizeLearning(enrollments);
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get("tab");
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : "courses";

  function onTabChange(value: string) {
    setSearchParams(value === "courses" ? {} : { tab: value }, { replace: true });
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_19rem] lg:grid-rows-[auto_1fr] xl:grid-cols-[minmax(0,1fr)_20rem]">
      <OverallProgressCard summary={summary} className="lg:col-start-2 lg:row-start-1" />

      <Tabs
        value={tab}
        onValueChange={onTabChange}
        className="min-w-0 lg:col-start-1 lg:row-span-2 lg:row-start-1"
      >
        <TabsList
          aria-label="Your courses"
          className="grid h-auto w-full grid-cols-2 sm:inline-flex sm:h-10 sm:w-auto"
        >
          <TabsTrigger value="courses">My Courses</TabsTrigger>
          <TabsTrigger value="continue" className="group">
            Continue Learning <Count value={summary.inProgress.length} />
          </TabsTrigger>
          <TabsTrigger value="completed" className="group">
            Completed <Count value={summary.completed.length} />
          </TabsTrigger>
          <TabsTrigger value="certificates" className="group">
            Certificates <Count value={summary.completed.length} />
          </TabsTrigger>
        </TabsList>

        <TabsContent value="courses" className="mt-5">
          {enrollments.length ? (
            <CourseGrid enrollments={enrollments} action={courseAction} />
          ) : (
            <EmptyState
              titleAs="h3"
              icon={<BookOpenIcon />}
              title="No courses yet"
              description="When your administrator enrolls you in a course, it will appear here, ready to start."
            />
          )}
        </TabsContent>
        <TabsContent value="continue" className="mt-5">
          {summary.inProgress.length ? (
            <CourseGrid enrollments={summary.inProgress} action={courseAction} />
          ) : (
            <EmptyState
              titleAs="h3"
              icon={<CirclePlayIcon />}
              title="Nothing in progress"
              description="Start a course and it will wait for you here, so you can pick up right where you left off."
              action={
                enrollments.length ? (
                  <Button variant="outline" onClick={() => onTabChange("courses")}>
                    Browse my courses
                  </Button>
                ) : null
              }
            />
          )}
        </TabsContent>
        <TabsContent value="completed" className="mt-5">
          {summary.completed.length ? (
            <CourseGrid enrollments={summary.completed} action={courseAction} />
          ) : (
            <EmptyState
              titleAs="h3"
              icon={<CircleCheckIcon />}
              title="No completed courses yet"
              description="Finish every module of a course to complete it. Your completed courses will be listed here."
            />
          )}
        </TabsContent>
        <TabsContent value="certificates" className="mt-5">
          {summary.completed.length ? (
            <CertificateList
              enrollments={summary.completed}
              certificateAction={certificateAction}
              certificateCredit={certificateCredit}
            />
          ) : (
            <EmptyState
              titleAs="h3"
              icon={<AwardIcon />}
              title="No certificates yet"
              description="Complete a course to earn a certificate you can download, print and share."
            />
          )}
        </TabsContent>
      </Tabs>

      <RecentActivityCard enrollments={summary.recent} className="lg:col-start-2 lg:row-start-2" />
    </div>
  );
}

function Count({ value }: { value: number }) {
  return (
    <span className="min-w-5 rounded-full bg-zinc-200/80 px-1.5 py-px text-center text-xs font-semibold text-zinc-700 tabular-nums group-data-[state=active]:bg-indigo-100 group-data-[state=active]:text-indigo-800">
      {value}
    </span>
  );
}

function CourseGrid({
  enrollments,
  action,
}: {
  enrollments: EnrollmentWithRelations[];
  action?: CourseCardAction;
}) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 sm:gap-5">
      {enrollments.map((enrollment) => (
        <li key={enrollment.id} className="grid">
          <CourseCard enrollment={enrollment} action={action} />
        </li>
      ))}
    </ul>
  );
}

function CertificateList({
  enrollments,
  certificateAction,
  certificateCredit,
}: {
  enrollments: EnrollmentWithRelations[];
  certificateAction: CertificateAction;
  certificateCredit?: CertificateAction;
}) {
  const dates = useDates();
  return (
    <ul className="grid gap-3">
      {enrollments.map((enrollment) => (
        <li
          key={enrollment.id}
          data-testid="certificate-item"
          className="flex flex-col gap-4 rounded-2xl border border-zinc-200 bg-white p-4 shadow-xs shadow-zinc-950/5 sm:flex-row sm:items-center sm:p-5"
        >
          <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-amber-100 to-amber-200 text-amber-800 ring-1 ring-amber-300/60">
            <AwardIcon className="size-6" aria-hidden="true" />
          </span>
          <div className="grid min-w-0 flex-1 gap-0.5">
            <h3 className="truncate text-[15px] font-semibold text-zinc-950">
              {enrollment.course.title}
            </h3>
            <p className="text-sm text-zinc-600">
              {[
                `Completed ${dates.date(enrollment.completedAt)}`,
                // The certificate's own credit line names the profession of what was claimed.
                enrollment.course.creditTypes.length && certificateCredit
                  ? null
                  : courseFacts(enrollment.course),
              ]
                .filter(Boolean)
                .join(" · ")}
            </p>
            {enrollment.course.creditTypes.length ? certificateCredit?.(enrollment) : null}
          </div>
          <div className="shrink-0">{certificateAction(enrollment)}</div>
        </li>
      ))}
    </ul>
  );
}

function DashboardSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading your courses"
      className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_19rem] xl:grid-cols-[minmax(0,1fr)_20rem]"
    >
      <div className="grid gap-5">
        <Skeleton className="h-10 w-full max-w-lg rounded-xl" />
        <div className="grid gap-4 sm:grid-cols-2 sm:gap-5">
          <CourseCardSkeleton />
          <CourseCardSkeleton />
        </div>
      </div>
      <div className="order-first grid gap-6 lg:order-none">
        <Skeleton className="h-72 rounded-2xl" />
        <Skeleton className="hidden h-56 rounded-2xl lg:block" />
      </div>
    </div>
  );
}
