import {
  type Course,
  type EnrollmentWithRelations,
  MESSAGES,
  type Module,
  type User,
} from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import {
  ArrowLeftIcon,
  CheckIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  CircleCheckIcon,
  LayersIcon,
  LockIcon,
  TrophyIcon,
} from "lucide-react";
import { type ComponentType, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { Badge } from "../../../components/ui/badge";
import { Button, type ButtonProps } from "../../../components/ui/button";
import { EmptyState } from "../../../components/ui/empty-state";
import { PageLoadError } from "../../../components/ui/page-load-error";
import { Progress } from "../../../components/ui/progress";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { plural } from "../../../lib/format";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { cn } from "../../../lib/utils";
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
import { CourseCredit, CourseLength, CourseSubject } from "./course-credit";
import { ModuleList } from "./course-module-list";
import { CourseNotFound, PlayerSkeleton } from "./course-player-states";
import { CourseUnavailable } from "./course-unavailable";
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

/** What other steps of completion add to the player; each renders nothing when it does not apply. */
export type PlayerExtensions = {
  /** Shown with the current module, under its description (e.g. its review questions). */
  renderModuleExtra?: (args: { courseId: string; moduleId: string }) => ReactNode;
  /** Inside the module's <video>: its <track> elements (e.g. caption tracks). */
  renderVideoTracks?: (args: { courseId: string; moduleId: string }) => ReactNode;
  /** Right under the video, with its element (e.g. a captions switch and the transcript). */
  renderVideoExtra?: (args: {
    courseId: string;
    moduleId: string;
    video: HTMLVideoElement | null;
  }) => ReactNode;
  /**
   * Shown once every module is done and the course is not complete yet (e.g. the final
   * exam). `autoFocus` asks it to take focus: the learner just completed the last module.
   */
  renderNextStep?: (args: { courseId: string; autoFocus: boolean }) => ReactNode;
  /** Under the course's heading (e.g. a link to the activity's information, an expiry notice). */
  renderHeaderExtra?: (args: { courseId: string }) => ReactNode;
  /**
   * Right under the header, above the video: the learner's next step when it waits on
   * another screen (the evaluation, the attestation), so it is never found only far below.
   */
  renderNextStepTop?: (args: { courseId: string }) => ReactNode;
  /**
   * In place of 'Mark as Complete': `action` itself, or why the module cannot be completed
   * yet (e.g. its review questions are unanswered).
   */
  renderCompleteAction?: (args: {
    courseId: string;
    moduleId: string;
    action: ReactNode;
  }) => ReactNode;
  /**
   * Under the current module: where the learner stands with every step of the course.
   * `progressKey` changes with each completed module; `autoFocus` as for `renderNextStep`.
   */
  renderCompletion?: (args: {
    courseId: string;
    autoFocus: boolean;
    progressKey: number;
  }) => ReactNode;
  /**
   * While set, every module not yet completed stays locked and this shows in place of the
   * video: something the course asks for before its first module (e.g. an acknowledgement).
   */
  startGate?: ReactNode;
};

export type CertificateButtonProps = {
  enrollment: EnrollmentWithRelations;
  className?: string;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
};

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
  const dates = useDates();
  const [searchParams, setSearchParams] = useSearchParams();
  const completeModule = useCompleteModule();
  const queryClient = useQueryClient();
  const videoAreaRef = useRef<HTMLDivElement>(null);
  const nextButtonRef = useRef<HTMLButtonElement>(null);
  const celebrationRef = useRef<HTMLElement>(null);
  const [pendingFocus, setPendingFocus] = useState<"next" | "celebration" | "next-step" | null>(
    null,
  );

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

  function select(moduleId: string, options: { reveal?: boolean } = {}) {
    setSearchParams({ module: moduleId }, { replace: true });
    // On phones the list sits under the video: bring the video back into view.
    const videoArea = videoAreaRef.current;
    if (options.reveal && videoArea && videoArea.getBoundingClientRect().top < 64) {
      videoArea.scrollIntoView({ block: "start", behavior: "smooth" });
    }
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
      <header className="grid gap-4">
        <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-zinc-600">
          <Link to="/learner">
            <ArrowLeftIcon aria-hidden="true" />
            My learning
          </Link>
        </Button>
        <div className="flex flex-col gap-5 lg:flex-row lg:items-end lg:justify-between lg:gap-10">
          <div className="grid min-w-0 gap-2.5">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-zinc-600">
              <CourseSubject course={course} />
              <span className="inline-flex items-center gap-1">
                <LayersIcon className="size-3.5" aria-hidden="true" />
                {plural(modules.length, "module")}
              </span>
              <CourseLength course={course} />
              <CourseCredit course={course} />
            </div>
            <h1 className="text-2xl font-semibold tracking-tight text-balance text-zinc-950 sm:text-[28px]">
              {course.title}
            </h1>
            {extensions.renderHeaderExtra ? (
              <div className="empty:hidden">
                {extensions.renderHeaderExtra({ courseId: course.id })}
              </div>
            ) : null}
          </div>
          <div className="grid w-full shrink-0 gap-2 lg:w-80">
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <span className="text-zinc-600" data-testid="course-progress-text">
                {completed.length} of {modules.length} modules completed
              </span>
              <span
                className="font-semibold text-zinc-950 tabular-nums"
                data-testid="course-progress"
              >
                {percent}%
              </span>
            </div>
            <Progress
              value={percent}
              aria-label="Course progress"
              className={cn("h-2.5", enrollment.isCompleted && "[&>div]:bg-emerald-600")}
            />
          </div>
        </div>
      </header>

      {extensions.renderNextStepTop ? (
        <div className="empty:hidden">{extensions.renderNextStepTop({ courseId: course.id })}</div>
      ) : null}

      {current ? (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-8">
          <div className="grid min-w-0 gap-5 sm:gap-6">
            <div ref={videoAreaRef} className="scroll-mt-20">
              {gate && states.get(current.id) === "locked" ? (
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
            !(gate && states.get(current.id) === "locked") &&
            !watchQuery.isPending ? (
              <div key={current.id} className="-mt-2 empty:hidden sm:-mt-3">
                {extensions.renderVideoExtra({ courseId: course.id, moduleId: current.id, video })}
              </div>
            ) : null}

            {enrollment.isCompleted ? (
              <section
                ref={celebrationRef}
                tabIndex={-1}
                aria-labelledby="course-complete-title"
                data-testid="course-complete"
                className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-indigo-600 via-indigo-600 to-violet-700 p-5 text-white shadow-lg shadow-indigo-950/10 outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 focus-visible:ring-offset-2 sm:p-6"
              >
                <span
                  aria-hidden="true"
                  className="absolute -top-16 -right-10 size-48 rounded-full bg-white/10"
                />
                <span
                  aria-hidden="true"
                  className="absolute -bottom-20 right-24 size-40 rounded-full bg-violet-400/20"
                />
                <div className="relative flex flex-col gap-4 sm:flex-row sm:items-center sm:gap-5">
                  <span className="flex size-14 shrink-0 items-center justify-center rounded-2xl bg-white/15 ring-1 ring-white/25">
                    <TrophyIcon className="size-7 text-amber-300" aria-hidden="true" />
                  </span>
                  <div className="grid min-w-0 flex-1 gap-1">
                    <h2 id="course-complete-title" className="text-lg font-semibold">
                      Course complete. Congratulations!
                    </h2>
                    <p className="text-sm leading-relaxed text-indigo-100">
                      You finished every module on {dates.date(enrollment.completedAt)}. Your
                      certificate is ready to download and print.
                    </p>
                  </div>
                  <CertificateButton
                    enrollment={enrollment}
                    variant="outline"
                    className="border-transparent bg-white text-indigo-800 shadow-sm hover:border-transparent hover:bg-indigo-50 focus-visible:ring-white focus-visible:ring-offset-indigo-700"
                  />
                </div>
              </section>
            ) : null}

            {stepsRemain && extensions.renderNextStep ? (
              <div className="empty:hidden">
                {extensions.renderNextStep({
                  courseId: course.id,
                  autoFocus: pendingFocus === "next-step",
                })}
              </div>
            ) : null}

            <section
              aria-labelledby="module-title"
              className="rounded-2xl border border-zinc-200 bg-white shadow-xs shadow-zinc-950/5"
            >
              <div className="grid gap-2 px-5 pt-5 sm:px-6 sm:pt-6">
                <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs font-medium text-zinc-600">
                  <span className="font-semibold tracking-wide text-indigo-700 uppercase">
                    Module {index + 1} of {modules.length}
                  </span>
                  <span aria-hidden="true">·</span>
                  <span>{current.duration} min</span>
                  {states.get(current.id) === "completed" ? (
                    <Badge variant="success" className="ml-1">
                      <CheckIcon aria-hidden="true" />
                      Completed
                    </Badge>
                  ) : null}
                </p>
                <h2
                  id="module-title"
                  className="text-lg leading-snug font-semibold text-zinc-950 sm:text-xl"
                >
                  {current.title}
                </h2>
                {current.description ? (
                  <p className="text-sm leading-relaxed whitespace-pre-line text-zinc-600 sm:text-[15px]">
                    {current.description}
                  </p>
                ) : null}
              </div>
              {verified && watchQuery.data && states.get(current.id) === "available" ? (
                <WatchProgress
                  watch={watchQuery.data}
                  module={currentWatch}
                  hintId={watchHintId}
                  error={tracker.error}
                />
              ) : null}
              {extensions.renderModuleExtra && states.get(current.id) !== "locked" ? (
                <div key={current.id} className="px-5 pt-5 empty:hidden sm:px-6">
                  {extensions.renderModuleExtra({ courseId: course.id, moduleId: current.id })}
                </div>
              ) : null}
              <div className="mt-5 grid grid-cols-2 gap-3 border-t border-zinc-100 px-5 py-4 sm:flex sm:items-center sm:px-6">
                <Button
                  variant="outline"
                  disabled={!previous}
                  onClick={() => previous && select(previous.id)}
                  className="sm:order-1"
                >
                  <ChevronLeftIcon aria-hidden="true" />
                  Previous
                </Button>
                <div className="order-first col-span-2 sm:order-2 sm:col-span-1 sm:mx-auto">
                  {states.get(current.id) !== "available" ? null : current.kind !== "video" ? (
                    <p className="text-center text-sm text-zinc-600">
                      This module completes when you finish its content.
                    </p>
                  ) : (
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
                  )}
                </div>
                <Button
                  ref={nextButtonRef}
                  variant={
                    states.get(current.id) === "completed" && !nextLocked ? "default" : "outline"
                  }
                  disabled={nextLocked}
                  onClick={() => next && select(next.id)}
                  className="sm:order-3"
                >
                  Next
                  <ChevronRightIcon aria-hidden="true" />
                </Button>
              </div>
              {next && nextLocked && !gate ? (
                <p className="-mt-1 flex items-center gap-2 px-5 pb-4 text-xs text-zinc-600 sm:px-6">
                  <LockIcon className="size-3.5 shrink-0" aria-hidden="true" />
                  {current.kind === "video"
                    ? "Mark this module as complete to unlock the next one."
                    : "Finish this module's content to unlock the next one."}
                </p>
              ) : null}
            </section>

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
