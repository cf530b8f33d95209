import { ASSESSMENT_MESSAGES, type Attempt, MESSAGES, type SubmitResult } from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeftIcon, CircleAlertIcon, GraduationCapIcon, SearchXIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link, Navigate, useSearchParams } from "react-router";
import { Button } from "../../../../components/ui/button";
import { EmptyState } from "../../../../components/ui/empty-state";
import { LearnerPageNotice } from "../../../../components/ui/learner-page-notice";
import { PageLoadError } from "../../../../components/ui/page-load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { getErrorMessage, isApiError } from "../../../../lib/api-client";
import { useDocumentTitle } from "../../../../lib/use-document-title";
import { completionQueryKey } from "../../api/get-completion";
import { useExamAttemptResult } from "../../api/get-exam-attempt-result";
import { examStatusQueryKey, useExamStatus } from "../../api/get-exam-status";
import { useStartExamAttempt } from "../../api/start-exam-attempt";
import { type ClosedReason, ExamAttempt } from "./exam-attempt";
import { ExamIntro } from "./exam-intro";
import { ExamResult } from "./exam-result";

const coursePath = (courseId: string) => `/course/${encodeURIComponent(courseId)}`;

type Graded = { attemptId: string; number: number; result: SubmitResult; timedOut: boolean };
type Closed = { attemptId: string; reason: ClosedReason };

/** What the learner is told when an attempt on screen was graded without this page. */
const CLOSED_NOTICES: Record<ClosedReason, { title: string; text: string }> = {
  "exam.attempt_submitted": {
    title: ASSESSMENT_MESSAGES.alreadySubmitted,
    text: "It was submitted from another tab or device. This is its result.",
  },
  "exam.deadline_passed": {
    title: "Time is up",
    text: ASSESSMENT_MESSAGES.timeUp,
  },
};

/**
 * The final exam of a course: the rules and past attempts, the attempt in progress, and a
 * graded attempt's result. The address holds where the learner is (`?attempt=` or
 * `?result=`), so a reload resumes the attempt or shows the result again.
 */
export function ExamPage({
  courseId,
  courseTitle,
  certificate,
  afterPass,
  onGraded,
}: {
  courseId: string;
  /** Shown above the heading and in the way back, when known. */
  courseTitle?: string;
  /** The certificate download, once the course is complete (certificates feature). */
  certificate?: ReactNode;
  /** Under a passed result: the course complete, or its next step (credit feature). */
  afterPass?: ReactNode;
  /** An attempt was graded: the course may now be complete. */
  onGraded?: () => void;
}) {
  useDocumentTitle(courseTitle ? `Final exam · ${courseTitle}` : "Final exam");
  const queryClient = useQueryClient();
  const statusQuery = useExamStatus(courseId);
  const [params, setParams] = useSearchParams();
  const resultId = params.get("result");
  const attemptId = params.get("attempt");
  const start = useStartExamAttempt();
  const [active, setActive] = useState<Attempt | null>(null);
  const [graded, setGraded] = useState<Graded | null>(null);
  const [closed, setClosed] = useState<Closed | null>(null);
  const [startError, setStartError] = useState<string | null>(null);

  async function onStart() {
    setStartError(null);
    try {
      const attempt = await start.mutateAsync(courseId);
      setActive(attempt);
      setParams({ attempt: attempt.id });
    } catch (error) {
      setStartError(getErrorMessage(error) ?? "The exam could not be started. Please try again.");
      // A refusal after a graded attempt shows on the intro, where the reason is explained.
      if (resultId) setParams({}, { replace: true });
    }
  }

  function showResult(id: string) {
    setActive(null);
    setParams({ result: id }, { replace: true });
    onGraded?.();
  }

  function onAttemptGraded(attempt: Attempt, result: SubmitResult, timedOut: boolean) {
    setGraded({ attemptId: attempt.id, number: attempt.number, result, timedOut });
    showResult(attempt.id);
  }

  function onAttemptClosed(attempt: Attempt, reason: ClosedReason) {
    // Graded without this page's answer (deadline, another tab): read it from the server.
    void queryClient.invalidateQueries({ queryKey: examStatusQueryKey(courseId) });
    void queryClient.invalidateQueries({ queryKey: completionQueryKey(courseId) });
    setClosed({ attemptId: attempt.id, reason });
    showResult(attempt.id);
  }

  const header = <ExamHeader courseId={courseId} courseTitle={courseTitle} />;
  const status = statusQuery.data;
  const refused = isApiError(statusQuery.error) ? statusQuery.error : null;

  // The course is unknown, unpublished or gone (404), or not this learner's (403).
  if (refused?.status === 404 || refused?.status === 403) return <ExamNotFound />;

  let body: ReactNode;
  if (resultId) {
    const notice = closed?.attemptId === resultId ? <ClosedNotice reason={closed.reason} /> : null;
    const result =
      graded?.attemptId === resultId ? (
        <ExamResult
          key={resultId}
          courseId={courseId}
          result={graded.result}
          attemptNumber={graded.number}
          timedOut={graded.timedOut}
          certificate={certificate}
          afterPass={afterPass}
          onTryAgain={() => void onStart()}
          tryAgainPending={start.isPending}
        />
      ) : (
        <StoredResult
          key={resultId}
          courseId={courseId}
          attemptId={resultId}
          certificate={certificate}
          afterPass={afterPass}
          onTryAgain={() => void onStart()}
          tryAgainPending={start.isPending}
        />
      );
    body = (
      <>
        {notice}
        {result}
      </>
    );
  } else if (attemptId) {
    const attempt =
      active?.id === attemptId ? active : status?.current?.id === attemptId ? status.current : null;
    if (attempt) {
      body = (
        <ExamAttempt
          key={attempt.id}
          courseId={courseId}
          attempt={attempt}
          onGraded={(result, { timedOut }) => onAttemptGraded(attempt, result, timedOut)}
          onClosed={(reason) => onAttemptClosed(attempt, reason)}
        />
      );
    } else if (statusQuery.isPending || statusQuery.isFetching) {
      body = <ExamSkeleton />;
    } else {
      // No longer open: graded at its deadline since, or an old address.
      const past = status?.attempts.find((a) => a.id === attemptId && a.submittedAt);
      return <Navigate replace to={{ search: past ? `?result=${past.id}` : "" }} />;
    }
  } else if (statusQuery.isPending) {
    body = <ExamSkeleton />;
  } else if (statusQuery.isError) {
    body = (
      <PageLoadError
        title="We couldn't load the exam"
        error={statusQuery.error}
        safe="Your answers so far are saved."
        onRetry={() => void statusQuery.refetch()}
      />
    );
  } else if (!statusQuery.data.enabled) {
    body = (
      <EmptyState
        titleAs="h2"
        icon={<GraduationCapIcon />}
        title="No final exam"
        description={ASSESSMENT_MESSAGES.examDisabled}
        action={
          <Button asChild variant="outline">
            <Link to={coursePath(courseId)}>Back to course</Link>
          </Button>
        }
      />
    );
  } else {
    body = (
      <ExamIntro
        status={statusQuery.data}
        certificate={certificate}
        onStart={() => void onStart()}
        starting={start.isPending}
        startError={startError}
      />
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 sm:gap-8">
      {header}
      {body}
    </div>
  );
}

function ExamHeader({ courseId, courseTitle }: { courseId: string; courseTitle?: string }) {
  return (
    <header className="grid gap-3">
      <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit max-w-full text-zinc-600">
        <Link to={coursePath(courseId)}>
          <ArrowLeftIcon aria-hidden="true" />
          <span className="truncate">{courseTitle ?? "Course"}</span>
        </Link>
      </Button>
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-950 sm:text-[28px]">
        Final exam
      </h1>
    </header>
  );
}

/** A graded attempt read again from the server (after a reload, or from the attempts list). */
function StoredResult({
  courseId,
  attemptId,
  certificate,
  afterPass,
  onTryAgain,
  tryAgainPending,
}: {
  courseId: string;
  attemptId: string;
  certificate?: ReactNode;
  afterPass?: ReactNode;
  onTryAgain: () => void;
  tryAgainPending: boolean;
}) {
  const resultQuery = useExamAttemptResult(attemptId);
  if (resultQuery.isPending) return <ExamSkeleton />;
  if (resultQuery.isError) {
    // Not graded yet, so it is still the attempt in progress.
    if (isApiError(resultQuery.error, "exam.not_graded")) {
      return <Navigate replace to={{ search: `?attempt=${encodeURIComponent(attemptId)}` }} />;
    }
    return (
      <div
        role="alert"
        className="flex flex-col items-center gap-4 rounded-2xl border border-red-200 bg-red-50/60 px-6 py-10 text-center"
      >
        <p className="text-sm text-red-900">
          {getErrorMessage(resultQuery.error) ?? "We couldn't load this result."}
        </p>
        <Button asChild variant="outline">
          <Link to={{ search: "" }}>Back to the exam</Link>
        </Button>
      </div>
    );
  }
  const result = resultQuery.data;
  return (
    <ExamResult
      courseId={courseId}
      result={result}
      attemptNumber={result.number}
      submittedAt={result.submittedAt}
      certificate={certificate}
      afterPass={afterPass}
      onTryAgain={onTryAgain}
      tryAgainPending={tryAgainPending}
    />
  );
}

function ExamSkeleton() {
  return (
    <div className="grid gap-6">
      <p role="status" className="sr-only">
        Loading...
      </p>
      <div aria-hidden="true" className="grid gap-6">
        <Skeleton className="h-64 w-full rounded-2xl" />
        <Skeleton className="h-40 w-full rounded-2xl" />
      </div>
    </div>
  );
}

/** Why an attempt still on screen was graded without this page, above its result. */
function ClosedNotice({ reason }: { reason: ClosedReason }) {
  const notice = CLOSED_NOTICES[reason];
  return (
    <div
      role="status"
      data-testid="exam-closed-notice"
      className="flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
      <div className="grid gap-0.5">
        <p className="font-semibold">{notice.title}</p>
        <p>{notice.text}</p>
      </div>
    </div>
  );
}

function ExamNotFound() {
  return (
    <LearnerPageNotice icon={SearchXIcon} title={MESSAGES.courseNotFound}>
      This course doesn't exist, isn't available yet, or you aren't enrolled in it.
    </LearnerPageNotice>
  );
}
