import { type Course, type CoursePublishCheck, MESSAGES } from "@contract";
import { ArrowLeftIcon, BookXIcon, PencilIcon, PlusIcon, RocketIcon } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { CourseThumbnail } from "../../../components/course-thumbnail";
import { Button } from "../../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card";
import { EmptyState } from "../../../components/ui/empty-state";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError, loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { plural } from "../../../lib/format";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useCourse } from "../api/get-course";
import { usePublishChecks } from "../api/get-publish-checks";
import { usePublishCourse } from "../api/publish-course";
import { formatMinutes } from "../course-figures";
import { COURSE_TOASTS } from "../messages";
import { CourseSettingsCard } from "./course-settings-card";
import { CourseStatusBadge } from "./course-status-badge";
import { EditCourseDialog } from "./edit-course-dialog";
import { ModuleDialog } from "./module-dialog";
import { ModuleList, type ModuleListExtras } from "./module-list";
import { PublishChecksList, publishBlockId } from "./publish-checks-list";
import { PublishConfirmDialog } from "./publish-confirm-dialog";
import { UnpublishCourseDialog } from "./unpublish-course-dialog";

function BackToCourses() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-zinc-600">
      <Link to="/admin/courses">
        <ArrowLeftIcon aria-hidden="true" />
        All courses
      </Link>
    </Button>
  );
}

/**
 * /admin/courses/:courseId body: status, publishing, modules and course info (SPEC section 2).
 * `renderSections` adds other features' parts of a course (its assessment) under the modules,
 * `moduleExtras` their parts of the module list (captions).
 */
export function CourseDetail({
  courseId,
  renderSections,
  moduleExtras,
}: {
  courseId: string;
  renderSections?: (course: Course) => ReactNode;
  moduleExtras?: ModuleListExtras;
}) {
  const { data: course, isPending, error, refetch } = useCourse(courseId);
  useDocumentTitle(course?.title ?? "Course details");

  if (isPending) return <CourseDetailLoading />;
  if (error) {
    const missing = isApiError(error, "courses.not_found");
    return (
      <div className="grid grid-cols-1 gap-4">
        <BackToCourses />
        <EmptyState
          titleAs="h1"
          icon={<BookXIcon />}
          title={missing ? MESSAGES.courseNotFound : "The course could not be loaded"}
          description={
            missing
              ? "It may have been deleted, or the link is wrong."
              : loadFailureHint(error, "Check your connection and try again.")
          }
          action={
            missing ? (
              <Button asChild variant="outline">
                <Link to="/admin/courses">Back to courses</Link>
              </Button>
            ) : (
              <Button variant="outline" onClick={() => void refetch()}>
                Try again
              </Button>
            )
          }
        />
      </div>
    );
  }
  return (
    <CourseDetailView course={course} renderSections={renderSections} moduleExtras={moduleExtras} />
  );
}

function CourseDetailView({
  course,
  renderSections,
  moduleExtras,
}: {
  course: Course;
  renderSections?: (course: Course) => ReactNode;
  moduleExtras?: ModuleListExtras;
}) {
  const publish = usePublishCourse();
  const [addOpen, setAddOpen] = useState(false);
  const [editOpen, setEditOpen] = useState(false);
  const hasModules = course.modules.length > 0;
  // After unpublishing, focus goes to 'Publish Course', which replaces the gone trigger.
  const publishButton = useRef<HTMLButtonElement>(null);
  const [focusPublish, setFocusPublish] = useState(false);
  useEffect(() => {
    if (focusPublish && !course.isPublished) {
      publishButton.current?.focus();
      setFocusPublish(false);
    }
  }, [focusPublish, course.isPublished]);

  const checksQuery = usePublishChecks(course.id);
  const checks = checksQuery.data ?? [];
  // A check that blocks publishing disables 'Publish Course' and describes why.
  const blocked = checks.filter((c) => c.severity === "block");
  const publishDescribedBy = [
    hasModules ? null : "publish-hint",
    ...blocked.map((_, i) => publishBlockId(i)),
  ].filter(Boolean);
  // What publishing asks to confirm, while the dialog asking for it is open.
  const [confirming, setConfirming] = useState<CoursePublishCheck[] | null>(null);

  async function onPublish(confirmed?: {
    manualCompletion: boolean;
    creditLengthReason: string | undefined;
  }) {
    const asks = checks.filter((c) => c.severity === "confirm");
    if (asks.length && !confirmed) {
      setConfirming(asks);
      return;
    }
    try {
      await publish.mutateAsync({
        courseId: course.id,
        confirmManualCompletion: confirmed?.manualCompletion,
        creditLengthReason: confirmed?.creditLengthReason,
      });
      setConfirming(null);
      toast({ title: COURSE_TOASTS.published, description: COURSE_TOASTS.publishedDescription });
    } catch (error) {
      // The course changed since the checks were read: ask again, from the checks as they now stand.
      if (isApiError(error, "courses.publish_needs_confirmation")) {
        const fresh = (await checksQuery.refetch()).data?.filter((c) => c.severity === "confirm");
        setConfirming(
          fresh?.length
            ? fresh
            : [
                {
                  key: "manual-completion",
                  severity: "confirm",
                  message: getErrorMessage(error) ?? "Confirm to publish this course.",
                  moduleId: null,
                },
              ],
        );
        return;
      }
      // Refused for another reason: the dialog closes so the reason is read beside the checks.
      setConfirming(null);
      if (isApiError(error, "courses.publish_blocked")) void checksQuery.refetch();
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.publishFailed,
        description: getErrorMessage(error) ?? "The course could not be published.",
      });
    }
  }

  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <div className="grid grid-cols-1 gap-4">
        <BackToCourses />
        <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
          <div className="grid min-w-0 gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <CourseStatusBadge isPublished={course.isPublished} />
              {course.isPublished ? (
                <UnpublishCourseDialog
                  course={course}
                  onUnpublished={() => setFocusPublish(true)}
                />
              ) : null}
              <span className="text-xs font-semibold tracking-wide text-indigo-700 uppercase">
                {course.category}
              </span>
            </div>
            <h1 className="text-2xl font-semibold tracking-tight text-balance text-zinc-950 sm:text-[28px]">
              {course.title}
            </h1>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="outline" onClick={() => setEditOpen(true)}>
              <PencilIcon aria-hidden="true" />
              Edit details
            </Button>
            {course.isPublished ? null : (
              <Button
                ref={publishButton}
                onClick={() => void onPublish()}
                disabled={!hasModules || blocked.length > 0 || publish.isPending}
                aria-describedby={publishDescribedBy.join(" ") || undefined}
              >
                {publish.isPending ? <Spinner /> : <RocketIcon aria-hidden="true" />}
                Publish Course
              </Button>
            )}
            <Button
              variant={course.isPublished ? "default" : "outline"}
              onClick={() => setAddOpen(true)}
            >
              <PlusIcon aria-hidden="true" />
              Add Module
            </Button>
          </div>
        </div>
        {!course.isPublished && !hasModules ? (
          <p id="publish-hint" className="text-sm text-zinc-600">
            Add at least one module to publish this course.
          </p>
        ) : null}
        <PublishChecksList checks={checks} />
      </div>

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid min-w-0 grid-cols-1 gap-6">
          <ModuleList course={course} onAddModule={() => setAddOpen(true)} extras={moduleExtras} />
          {renderSections?.(course)}
        </div>
        <div className="order-first grid gap-6 lg:sticky lg:top-10 lg:order-none">
          <CourseInfoCard course={course} />
          <CourseSettingsCard course={course} />
        </div>
      </div>

      <ModuleDialog courseId={course.id} open={addOpen} onOpenChange={setAddOpen} />
      <EditCourseDialog course={course} open={editOpen} onOpenChange={setEditOpen} />
      <PublishConfirmDialog
        checks={confirming ?? []}
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        onConfirm={(creditLengthReason) =>
          void onPublish({
            manualCompletion: Boolean(confirming?.some((c) => c.key === "manual-completion")),
            creditLengthReason,
          })
        }
        pending={publish.isPending}
      />
    </div>
  );
}

function CourseInfoCard({ course }: { course: Course }) {
  const dates = useDates();
  const totalMinutes = course.modules.reduce((sum, m) => sum + m.duration, 0);
  const rows: [string, string][] = [
    ["Status", course.isPublished ? "Published" : "Draft"],
    ["Category", course.category],
    ["Duration", plural(course.duration, "hour")],
    ["Modules", String(course.modules.length)],
    ["Video length", formatMinutes(totalMinutes)],
    ["Created", dates.date(course.createdAt)],
  ];
  return (
    <Card className="overflow-hidden">
      <CourseThumbnail
        src={course.thumbnail}
        category={course.category}
        className="aspect-[16/9] w-full"
        iconClassName="size-10"
      />
      <CardHeader className="pt-4 sm:pt-5">
        <CardTitle>Course info</CardTitle>
        <p className="text-sm leading-relaxed text-zinc-600">{course.description}</p>
      </CardHeader>
      <CardContent className="pt-4">
        <dl className="grid grid-cols-1 gap-2.5 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="flex items-center justify-between gap-4">
              <dt className="text-zinc-600">{label}</dt>
              <dd className="font-medium text-zinc-900 tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

function CourseDetailLoading() {
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-zinc-600">
        <Spinner className="size-4 text-indigo-600" />
        {MESSAGES.loadingCourse}
      </p>
      <div className="grid grid-cols-1 gap-3" aria-hidden="true">
        <Skeleton className="h-5 w-24" />
        <Skeleton className="h-8 w-2/3 max-w-md" />
      </div>
      <div
        className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]"
        aria-hidden="true"
      >
        <Skeleton className="h-72 rounded-2xl" />
        <Skeleton className="order-first h-80 rounded-2xl lg:order-none" />
      </div>
    </div>
  );
}
