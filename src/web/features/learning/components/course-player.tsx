import {
  type Course,
  type EnrollmentWithRelations,
  MESSAGES,
  type Module,
  type User,
} from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { CircleCheckIcon, LayersIcon } from "lucide-react";
import { type ComponentType, useEffect, useId, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { Button } from "../../../components/ui/button";
import { EmptyState } from "../../../components/ui/empty-state";
import { PageLoadError } from "../../../components/ui/page-load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useCompleteModule } from "../api/complete-module";
import { courseQueryKey, useCourse } from "../api/get-course";
import { useCourseWatch } from "../api/get-course-watch";
import { myEnrollmentsQueryKey, useMyEnrollments } from "../api/get-my-enrollments";
import {
  displayProgress,
  type ModuleState,
  moduleStates,
  resumeModuleId,
} from "../enrollment-status";
import { CourseCompleteBanner } from "./course-complete-banner";
import { ModuleList } from "./course-module-list";
import type { CertificateButtonProps, PlayerExtensions } from "./course-player-extensions";
import { CoursePlayerHeader } from "./course-player-header";
import { CourseNotFound, PlayerSkeleton } from "./course-player-states";
import { CourseUnavailable } from "./course-unavailable";
import { ModulePanel } from "./module-panel";
import { ModuleVideo } from "./module-video";
import { PackagePlayer } from "./package-player";
import { useWatchTracker } from "./use-watch-tracker";
import { WatchProgress } from "./watch-progress";

/** SPEC section 8 success toast of a progress update. */
const PROGRESS_TOAST = {
  title: "Progress updated",
  description: "Your progress has been saved",
} as const;
const PROGRESS_FAILED = "Could not save your progress";
const NOT_COMPLETE_YET = "This module is not complete yet";

/**
 * Previous or Next turns disabled at either end of what is open, which would drop the focus to
 * the start of the page: the new module's title takes it then.
 */
type TitleFocus = { moduleId: string };

/**
 * SPEC section 2 "Course player": the modules in order with locks, the protected video,
 * Previous and Next, 'Mark as Complete', and the celebration with the certificate once the
 * course is complete. Data: GET /api/courses/:id and the learner's enrollment.
 */
export function CoursePlayer({
  courseId,
  user,
  CertificateButton,
  extensions = {},
}: {
  courseId: string;
  user: User;
  /** The certificate download control (certificates feature). */
  CertificateButton: ComponentType<CertificateButtonProps>;
  extensions?: PlayerExtensions;
}) {
  const enrollmentsQuery = useMyEnrollments(user.id);
  const enrollment = enrollmentsQuery.data?.find((e) => e.courseId === courseId);
  // The dashboard already holds the course: show it at once while the server confirms.
  const courseQuery = useCourse(
    courseId,
    enrollment?.course.isPublished ? enrollment.course : undefined,
  );
  const status = isApiError(courseQuery.error) ? courseQuery.error.status : undefined;

  // The server answers the course only to enrolled learners, so a course that loads while
  // the cached list lacks it means an enrollment made since: read the list again, once.
  const missing = enrollmentsQuery.isSuccess && !enrollment;
  // A course taken offline (unpublished) answers 404 like a missing one; the learner's own
  // list tells them apart. A list read before it went offline is read again, once.
  const offline =
    enrollment !== undefined && !enrollment.course.isPublished && !courseQuery.isSuccess;
  const listMayBeStale = status === 404 && enrollment !== undefined && !offline;
  const [reloadedList, setReloadedList] = useState(false);
  const { refetch: refetchEnrollments } = enrollmentsQuery;
  useEffect(() => {
    if (((missing && courseQuery.isSuccess) || listMayBeStale) && !reloadedList) {
      setReloadedList(true);
      void refetchEnrollments();
    }
  }, [missing, courseQuery.isSuccess, listMayBeStale, reloadedList, refetchEnrollments]);
  const checkingList =
    status === 404 &&
    (enrollmentsQuery.isPending ||
      (listMayBeStale && (!reloadedList || enrollmentsQuery.isFetching)));

  const notFound =
    !offline &&
    !checkingList &&
    (status === 404 ||
      status === 403 ||
      (missing && courseQuery.isSuccess && reloadedList && !enrollmentsQuery.isFetching));

  useDocumentTitle(
    offline
      ? "Course unavailable"
      : notFound
        ? MESSAGES.courseNotFound
        : (courseQuery.data?.title ?? "Course"),
  );

  if (offline) return <CourseUnavailable title={enrollment.course.title} />;
  if (notFound) return <CourseNotFound />;
  if (checkingList) return <PlayerSkeleton />;
  if (courseQuery.isError || enrollmentsQuery.isError) {
    return (
      <PageLoadError
        heading="h1"
        title="We couldn't load this course"
        error={courseQuery.error ?? enrollmentsQuery.error}
        safe="Your progress is safe."
        onRetry={() => {
          if (courseQuery.isError) void courseQuery.refetch();
          if (enrollmentsQuery.isError) void enrollmentsQuery.refetch();
        }}
      >
        <Button asChild variant="ghost">
          <Link to="/learner">Back to my learning</Link>
        </Button>
      </PageLoadError>
    );
  }
  if (!courseQuery.data || !enrollment) return <PlayerSkeleton />;
  return (
    <Player
      course={courseQuery.data}
      enrollment={enrollment}
      userId={user.id}
      CertificateButton={CertificateButton}
      extensions={extensions}
    />
  );
}

function Player({
  course,
  enrollment,
  userId,
  CertificateButton,
  extensions,
}: {
  course: Course;
  enrollment: EnrollmentWithRelations;
  userId: string;
  CertificateButton: ComponentType<CertificateButtonProps>;
  extensions: PlayerExtensions;
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const completeModule = useCompleteModule();
  const queryClient = useQueryClient();
  const videoAreaRef = useRef<HTMLDivElement>(null);
  const nextButtonRef = useRef<HTMLButtonElement>(null);
  const celebrationRef = useRef<HTMLElement>(null);
  const [pendingFocus, setPendingFocus] = useState<"next" | "celebration" | "next-step" | null>(
    null,
  );
  const titleRef = useRef<HTMLHeadingElement>(null);
  const [titleFocus, setTitleFocus] = useState<TitleFocus | null>(null);

  const modules = course.modules;
  const completed = enrollment.completedModules.filter((id) => modules.some((m) => m.id === id));
  const gate = extensions.startGate;
  const states = gated(moduleStates(modules, completed), Boolean(gate));
  const requested = searchParams.get("module");
  const currentId =
    requested && states.has(requested) && states.get(requested) !== "locked"
      ? requested
      : resumeModuleId(modules, completed);
  const index = modules.findIndex((m) => m.id === currentId);
  const current = modules[index];
  const state = current ? states.get(current.id) : undefined;
  const previous = index > 0 ? modules[index - 1] : undefined;
  const next = index >= 0 ? modules[index + 1] : undefined;
  const nextLocked = !next || states.get(next.id) === "locked";
  const percent = displayProgress(enrollment);
  // Every module done but the course not complete: another step (such as an exam) remains.
  const stepsRemain =
    modules.length > 0 && completed.length === modules.length && !enrollment.isCompleted;

  // Watch tracking and resume for every course; the completion rule if verified.
  const watchQuery = useCourseWatch(course.id);
  const verified = course.completionPolicy === "verified";
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const tracker = useWatchTracker(video, {
    courseId: course.id,
    moduleId: current?.id ?? "",
    pauseWhenHidden: verified,
  });
  const currentWatch = watchQuery.data?.modules.find((m) => m.moduleId === current?.id);
  const canComplete = !verified || Boolean(currentWatch?.canComplete);
  const watchHintId = useId();

  // Pin the module being watched in the address, so completing it does not jump ahead
  // (the resume point moves on) and a reload or a shared link opens the same module.
  useEffect(() => {
    if (currentId && requested !== currentId) {
      setSearchParams({ module: currentId }, { replace: true });
    }
  }, [currentId, requested, setSearchParams]);

  // After a completion, focus moves to what the learner most likely wants next.
  // It waits until the updated enrollment has reached this component.
  useEffect(() => {
    if (pendingFocus === "next" && !nextLocked) {
      nextButtonRef.current?.focus();
      setPendingFocus(null);
    } else if (pendingFocus === "celebration" && enrollment.isCompleted) {
      celebrationRef.current?.focus();
      setPendingFocus(null);
    }
  }, [pendingFocus, nextLocked, enrollment.isCompleted]);

  // A keyboard user who picked another module keeps their place: see TitleFocus.
  useEffect(() => {
    if (!titleFocus || titleFocus.moduleId !== currentId) return;
    setTitleFocus(null);
    const active = document.activeElement;
    const dropped =
      !active ||
      active === document.body ||
      (active instanceof HTMLButtonElement && active.disabled);
    if (dropped) titleRef.current?.focus();
  }, [titleFocus, currentId]);

  function select(moduleId: string, options: { reveal?: boolean } = {}) {
    setSearchParams({ module: moduleId }, { replace: true });
    // On phones the list sits under the video: bring the video back into view.
    const videoArea = videoAreaRef.current;
    if (options.reveal && videoArea && videoArea.getBoundingClientRect().top < 64) {
      videoArea.scrollIntoView({ block: "start", behavior: "smooth" });
    }
    setTitleFocus({ moduleId });
  }

  /**
   * A package module completed itself (its content reported it): the course and the list
   * are read again, so progress, locks and the celebration show as for a video module.
   */
  async function onPackageCompleted() {
    toast(PROGRESS_TOAST);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: myEnrollmentsQueryKey(userId) }),
      queryClient.invalidateQueries({ queryKey: courseQueryKey(course.id), exact: true }),
    ]);
    if (next) setPendingFocus("next");
  }

  async function onMarkComplete(module: Module) {
    try {
      const updated = await completeModule.mutateAsync({
        userId,
        courseId: course.id,
        moduleId: module.id,
        completedBefore: completed.length,
        totalModules: modules.length,
      });
      toast(PROGRESS_TOAST);
      if (updated.isCompleted && !enrollment.isCompleted) setPendingFocus("celebration");
      else if (next) setPendingFocus("next");
      else if (extensions.renderNextStep || extensions.renderCompletion) {
        setPendingFocus("next-step");
      }
    } catch (error) {
      // Taken offline meanwhile: the player gives way to the course's "unavailable" page as
      // soon as the course and the list are read again (useCompleteModule); a toast would
      // only say it twice.
      if (isApiError(error, "courses.unpublished")) return;
      // Not a fault: something the module still asks for (its review questions, added since
      // the page was read). The server says what; the player shows it afresh.
      if (isApiError(error, "review.answer_first")) {
        toast({ title: NOT_COMPLETE_YET, description: getErrorMessage(error) ?? undefined });
        return;
      }
      toast({
        variant: "destructive",
        title: PROGRESS_FAILED,
        description: getErrorMessage(error) ?? "Please try again.",
      });
    }
  }

  return (
    <div className="grid gap-6 sm:gap-8">
      <CoursePlayerHeader
        course={course}
        completedCount={completed.length}
        percent={percent}
        isCompleted={enrollment.isCompleted}
        extra={extensions.renderHeaderExtra?.({ courseId: course.id })}
      />

      {extensions.renderNextStepTop ? (
        <div className="empty:hidden">{extensions.renderNextStepTop({ courseId: course.id })}</div>
      ) : null}

      {current ? (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-8">
          <div className="grid min-w-0 gap-5 sm:gap-6">
            <div ref={videoAreaRef} className="scroll-mt-20">
              {gate && state === "locked" ? (
                gate
              ) : current.kind !== "video" ? (
                <PackagePlayer
                  key={current.id}
                  courseId={course.id}
                  module={current}
                  onModuleCompleted={() => void onPackageCompleted()}
                />
              ) : watchQuery.isPending ? (
                <Skeleton className="aspect-video w-full rounded-2xl" />
              ) : (
                <ModuleVideo
                  key={current.id}
                  module={current}
                  startAt={currentWatch?.position ?? 0}
                  onElement={setVideo}
                  tracks={extensions.renderVideoTracks?.({
                    courseId: course.id,
                    moduleId: current.id,
                  })}
                />
              )}
            </div>
            {extensions.renderVideoExtra &&
            current.kind === "video" &&
            !(gate && state === "locked") &&
            !watchQuery.isPending ? (
              <div key={current.id} className="-mt-2 empty:hidden sm:-mt-3">
                {extensions.renderVideoExtra({ courseId: course.id, moduleId: current.id, video })}
              </div>
            ) : null}

            {enrollment.isCompleted ? (
              <CourseCompleteBanner
                ref={celebrationRef}
                enrollment={enrollment}
                CertificateButton={CertificateButton}
              />
            ) : null}

            {stepsRemain && extensions.renderNextStep ? (
              <div className="empty:hidden">
                {extensions.renderNextStep({
                  courseId: course.id,
                  autoFocus: pendingFocus === "next-step",
                })}
              </div>
            ) : null}

            <ModulePanel
              module={current}
              index={index}
              count={modules.length}
              state={state}
              watch={
                verified && watchQuery.data && state === "available" ? (
                  <WatchProgress
                    watch={watchQuery.data}
                    module={currentWatch}
                    hintId={watchHintId}
                    error={tracker.error}
                  />
                ) : null
              }
              extra={
                state !== "locked"
                  ? extensions.renderModuleExtra?.({ courseId: course.id, moduleId: current.id })
                  : null
              }
              renderMarkComplete={() =>
                (extensions.renderCompleteAction ?? (({ action }) => action))({
                  courseId: course.id,
                  moduleId: current.id,
                  action: (
                    <Button
                      onClick={() => void onMarkComplete(current)}
                      disabled={completeModule.isPending || !canComplete}
                      aria-describedby={canComplete ? undefined : watchHintId}
                      className="w-full min-w-44 bg-emerald-600 hover:bg-emerald-700 active:bg-emerald-800 sm:w-auto"
                    >
                      {completeModule.isPending ? (
                        <Spinner />
                      ) : (
                        <CircleCheckIcon aria-hidden="true" />
                      )}
                      Mark as Complete
                    </Button>
                  ),
                })
              }
              previous={previous}
              next={next}
              nextLocked={nextLocked}
              lockHint={Boolean(next && nextLocked && !gate)}
              nextRef={nextButtonRef}
              titleRef={titleRef}
              onSelect={select}
            />

            {extensions.renderCompletion ? (
              <div className="empty:hidden">
                {extensions.renderCompletion({
                  courseId: course.id,
                  autoFocus: pendingFocus === "next-step",
                  progressKey: completed.length,
                })}
              </div>
            ) : null}
          </div>

          <ModuleList
            modules={modules}
            states={states}
            currentId={current.id}
            completedCount={completed.length}
            onSelect={(id) => select(id, { reveal: true })}
          />
        </div>
      ) : (
        <EmptyState
          titleAs="h3"
          icon={<LayersIcon />}
          title="No modules yet"
          description="This course has no modules yet. Check back soon, or contact your administrator."
        />
      )}
    </div>
  );
}

/** Every module not yet completed locked, while the course's start gate is closed. */
function gated(states: Map<string, ModuleState>, closed: boolean): Map<string, ModuleState> {
  if (!closed) return states;
  return new Map(
    [...states].map(([id, state]) => [id, state === "completed" ? state : ("locked" as const)]),
  );
}
