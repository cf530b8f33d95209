import {
  type Completion,
  type CompletionStepKey,
  CREDIT_MESSAGES,
  FORM_STEP_KEYS,
  hasLicenceOnFile,
} from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { ArrowRightIcon, CheckIcon, IdCardIcon, ListChecksIcon } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Link } from "react-router";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { LoadError } from "../../../../components/ui/load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { loadFailureHint } from "../../../../lib/api-client";
import { useDates } from "../../../../lib/dates";
import { cn } from "../../../../lib/utils";
import { useActivity } from "../../api/get-activity";
import { courseCompletionQueryKey, useCourseCompletion } from "../../api/get-course-completion";
import { useIdentifiers } from "../../api/get-identifiers";
import {
  type CompletionStep,
  checklistNextKey,
  checklistSteps,
  coursePaths,
  creditOpen,
  FORM_STEP_ACTIONS,
  hasExtraSteps,
  licenceNeeded,
} from "../../credit-steps";
import { ExpiryBanner } from "./credit-page";

/** Where the checklist is shown: the player has its own controls for the modules and the exam. */
type ChecklistContext = "player" | "page";

/** The way to each step that has a screen of its own (the certificate is handled apart). */
const STEP_ACTIONS: Record<
  Exclude<CompletionStepKey, "certificate">,
  { label: string; to: (courseId: string) => string }
> = {
  acknowledge: { label: "Read About this activity", to: coursePaths.about },
  modules: { label: "Continue the course", to: coursePaths.player },
  review: { label: "Answer the review questions", to: coursePaths.player },
  exam: { label: "Go to the final exam", to: coursePaths.exam },
  evaluation: { label: "Complete the evaluation", to: coursePaths.evaluation },
  ...FORM_STEP_ACTIONS,
  attestation: { label: "Attest and claim credit", to: coursePaths.attestation },
};

/** Steps the player itself leads to (Mark as Complete, review questions, the final exam card). */
const PLAYER_STEPS: readonly CompletionStepKey[] = ["modules", "review", "exam"];

/** Steps after the modules that the checklist leads to from the player. */
const AFTER_MODULES: readonly CompletionStepKey[] = [
  "evaluation",
  ...FORM_STEP_KEYS,
  "attestation",
  "certificate",
];

/**
 * The course's required steps in order (About this activity, modules, review questions, final
 * exam, evaluation, attestation, certificate), each done with its date, the next one marked,
 * and one way on to the next step. Renders nothing for a course that asks only for its
 * modules, so plain courses look as they always did.
 */
export function CompletionChecklist({
  courseId,
  context = "page",
  certificateAction,
  autoFocus = false,
  progressKey,
  className,
}: {
  courseId: string;
  context?: ChecklistContext;
  /** The certificate download once the course is complete (certificates feature). */
  certificateAction?: ReactNode;
  /** Take focus when the next step is one this checklist leads to (a module was just completed). */
  autoFocus?: boolean;
  /** Changes when the learner completes a module: the steps are read again. */
  progressKey?: number;
  className?: string;
}) {
  const query = useCourseCompletion(courseId);
  const queryClient = useQueryClient();
  const titleId = useId();
  const sectionRef = useRef<HTMLElement>(null);

  const seenProgress = useRef(progressKey);
  useEffect(() => {
    if (progressKey === seenProgress.current) return;
    seenProgress.current = progressKey;
    void queryClient.invalidateQueries({ queryKey: courseCompletionQueryKey(courseId) });
  }, [progressKey, courseId, queryClient]);

  const next = query.data?.next ?? null;
  const leadsOn = next !== null && AFTER_MODULES.includes(next);
  useEffect(() => {
    if (autoFocus && leadsOn) sectionRef.current?.focus();
  }, [autoFocus, leadsOn]);

  if (query.isPending) {
    return context === "player" ? null : <Skeleton className="h-56 w-full rounded-2xl" />;
  }
  if (query.isError) {
    return (
      <LoadError
        message={loadFailureHint(
          query.error,
          "We couldn't load the steps to complete this course.",
        )}
        onRetry={() => void query.refetch()}
        className={className}
      />
    );
  }
  const completion = query.data;
  if (!hasExtraSteps(completion)) return null;
  const steps = checklistSteps(completion);
  const nextKey = checklistNextKey(completion);
  const doneCount = steps.filter((s) => s.done).length;

  return (
    <section
      ref={sectionRef}
      tabIndex={-1}
      aria-labelledby={titleId}
      data-testid="completion-checklist"
      className={cn(
        "grid gap-4 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xs shadow-zinc-950/5 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 sm:p-6",
        className,
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="flex items-center gap-2.5">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700 ring-1 ring-indigo-100">
            <ListChecksIcon className="size-4" aria-hidden="true" />
          </span>
          <h2 id={titleId} className="text-base leading-tight font-semibold text-zinc-950">
            Steps to complete
          </h2>
        </div>
        <p className="pt-1.5 text-xs font-medium whitespace-nowrap text-zinc-600 tabular-nums">
          {doneCount} of {steps.length} done
        </p>
      </div>
      <ol className="grid gap-1">
        {steps.map((step, i) => (
          <StepRow key={step.key} step={step} number={i + 1} isNext={step.key === nextKey} />
        ))}
      </ol>
      <NextAction
        courseId={courseId}
        completion={completion}
        context={context}
        certificateAction={certificateAction}
      />
    </section>
  );
}

function StepRow({
  step,
  number,
  isNext,
}: {
  step: CompletionStep;
  number: number;
  isNext: boolean;
}) {
  const dates = useDates();
  const state = step.done ? "done" : isNext ? "next" : "pending";
  return (
    <li
      data-testid="completion-step"
      data-step={step.key}
      data-state={state}
      aria-current={isNext ? "step" : undefined}
      className={cn(
        "flex items-center gap-3 rounded-xl px-3 py-2",
        isNext && "bg-indigo-50 ring-1 ring-indigo-200",
      )}
    >
      {step.done ? (
        <span
          className="flex size-6 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-white"
          aria-hidden="true"
        >
          <CheckIcon className="size-3.5" strokeWidth={3} />
        </span>
      ) : (
        <span
          aria-hidden="true"
          className={cn(
            "flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
            isNext ? "bg-indigo-600 text-white" : "border border-zinc-300 bg-white text-zinc-600",
          )}
        >
          {number}
        </span>
      )}
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span
          className={cn(
            "text-sm leading-snug font-medium",
            step.done ? "text-zinc-900" : isNext ? "text-indigo-950" : "text-zinc-700",
          )}
        >
          {step.label}
        </span>
        <span className="text-xs text-zinc-600">
          {step.done
            ? step.doneAt
              ? `Done ${dates.date(step.doneAt)}`
              : "Done"
            : step.key === "review"
              ? "Answer each module's questions before you mark it complete"
              : isNext
                ? "Your next step"
                : "Not done yet"}
        </span>
      </span>
      {isNext ? <Badge className="shrink-0">Next</Badge> : null}
    </li>
  );
}

function NextAction({
  courseId,
  completion,
  context,
  certificateAction,
}: {
  courseId: string;
  completion: Completion;
  context: ChecklistContext;
  certificateAction?: ReactNode;
}) {
  const next = completion.next;
  if (completion.isCompleted || next === null) {
    // In the player the celebration above already offers the certificate.
    return context === "page" && certificateAction ? <div>{certificateAction}</div> : null;
  }
  if (next === "certificate") return <CertificateStep courseId={courseId} />;
  if (context === "player" && PLAYER_STEPS.includes(next)) return null;
  const action = STEP_ACTIONS[next];
  return (
    <div>
      <Button asChild className="w-full sm:w-auto" data-testid="completion-next-action">
        <Link to={action.to(courseId)}>
          {action.label}
          <ArrowRightIcon aria-hidden="true" />
        </Link>
      </Button>
    </div>
  );
}

/**
 * Every other step is done but no certificate yet: the course asks for a licence the
 * learner has not entered, or the activity or enrollment expired before the end.
 */
export function CertificateStep({ courseId }: { courseId: string }) {
  const activityQuery = useActivity(courseId);
  const activity = activityQuery.data;
  const licenceRequired = activity ? licenceNeeded(activity) : false;
  const identifiersQuery = useIdentifiers({ enabled: licenceRequired });

  if (activityQuery.isPending || (licenceRequired && identifiersQuery.isPending)) {
    return <Skeleton className="h-10 w-full rounded-lg sm:w-56" />;
  }
  if (activity && !creditOpen(activity)) {
    return (
      <ExpiryBanner
        courseExpired={activity.courseExpired}
        enrollmentExpired={activity.standing?.enrollmentExpired ?? false}
      />
    );
  }
  if (licenceRequired && identifiersQuery.data && !hasLicenceOnFile(identifiersQuery.data)) {
    return (
      <div className="grid gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4">
        <p className="text-sm font-medium text-amber-950">{CREDIT_MESSAGES.licenceNeeded}</p>
        <div>
          <Button asChild className="w-full sm:w-auto" data-testid="completion-next-action">
            <Link to="/profile#licence">
              <IdCardIcon aria-hidden="true" />
              Add your licence
            </Link>
          </Button>
        </div>
      </div>
    );
  }
  return (
    <p className="text-sm text-zinc-700">
      Every step is done. Your certificate is being issued; reload the page in a moment.
    </p>
  );
}

/**
 * What follows a passed final exam: "The course is complete." only when it is, else the next
 * step the course asks for, named and linked (the evaluation, the attestation, a licence).
 */
export function AfterExamPassed({ courseId }: { courseId: string }) {
  const { data: completion } = useCourseCompletion(courseId);
  if (!completion) return <Skeleton className="h-10 w-full rounded-lg sm:w-56" />;
  if (completion.isCompleted || completion.next === null) {
    return (
      <p className="text-sm font-medium text-emerald-900" data-testid="exam-next-step">
        The course is complete.
      </p>
    );
  }
  const label = completion.steps.find((s) => s.key === completion.next)?.label;
  return (
    <div className="grid gap-3" data-testid="exam-next-step">
      {label && completion.next !== "certificate" ? (
        <p className="text-sm font-medium text-zinc-800">Next: {label}.</p>
      ) : null}
      <NextAction courseId={courseId} completion={completion} context="page" />
    </div>
  );
}

/**
 * The learner's course card's way in, when the course asks for more than its modules:
 * "Next: Evaluation" and the like. Shows `fallback` (the card's own Start or Continue) while
 * the steps load, for plain courses, and while the modules are the next step.
 */
export function CompletionNextLink({
  courseId,
  courseTitle,
  fallback,
}: {
  courseId: string;
  courseTitle: string;
  fallback: ReactNode;
}) {
  const { data } = useCourseCompletion(courseId);
  const next = data?.next ?? null;
  if (!data || data.isCompleted || !hasExtraSteps(data) || next === null) return <>{fallback}</>;
  if (next === "modules" || next === "review") return <>{fallback}</>;
  const label = data.steps.find((s) => s.key === next)?.label ?? next;
  // The certificate waits on something the player's checklist explains (a licence, a date).
  const path =
    next === "certificate" ? coursePaths.player(courseId) : STEP_ACTIONS[next].to(courseId);
  return (
    <Button asChild className="mt-1 w-full" data-testid="course-next-step">
      <Link to={path}>
        Next: {label}
        <span className="sr-only"> of {courseTitle}</span>
        <ArrowRightIcon aria-hidden="true" />
      </Link>
    </Button>
  );
}
