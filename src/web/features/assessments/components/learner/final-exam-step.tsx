import { COMPLETION_STEP_LABELS } from "@contract";
import { ArrowRightIcon, GraduationCapIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { Button } from "../../../../components/ui/button";
import { Skeleton } from "../../../../components/ui/skeleton";
import { useCompletion } from "../../api/get-completion";
import { useExamStatus } from "../../api/get-exam-status";
import { ExamFacts, examPath } from "./exam-facts";

/**
 * The player's next step once every module is done and the course still asks for its final
 * exam: the rules in advance (pass mark, questions, time, attempts) and the way in.
 * Renders nothing when the course's next step is not the exam.
 */
export function FinalExamStep({
  courseId,
  autoFocus = false,
}: {
  courseId: string;
  /** Move focus here when it appears: the learner just completed the last module. */
  autoFocus?: boolean;
}) {
  const completionQuery = useCompletion(courseId);
  const examNext = completionQuery.data?.next === "exam";
  const statusQuery = useExamStatus(courseId, { enabled: examNext });
  const sectionRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (examNext && autoFocus) sectionRef.current?.focus();
  }, [examNext, autoFocus]);

  if (!examNext) return null;
  const status = statusQuery.data;
  return (
    <section
      ref={sectionRef}
      tabIndex={-1}
      aria-labelledby="final-exam-step-title"
      data-testid="final-exam-step"
      className="grid gap-4 rounded-2xl border border-indigo-200 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 bg-gradient-to-br from-indigo-50 via-white to-violet-50 p-5 shadow-xs shadow-indigo-950/5 sm:p-6"
    >
      <div className="flex items-start gap-4">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-sm">
          <GraduationCapIcon className="size-6" aria-hidden="true" />
        </span>
        <div className="grid min-w-0 gap-1">
          <p className="text-xs font-semibold tracking-wide text-indigo-700 uppercase">Next step</p>
          <h2 id="final-exam-step-title" className="text-lg font-semibold text-zinc-950">
            {COMPLETION_STEP_LABELS.exam}
          </h2>
          <p className="text-sm leading-relaxed text-zinc-700">
            You have completed every module.{" "}
            {status
              ? `You need ${status.passMark}% to pass the final exam and complete the course.`
              : "Pass the final exam to complete the course."}
          </p>
        </div>
      </div>
      {status ? (
        <>
          <ExamFacts status={status} />
          {status.current ? (
            <p className="text-sm font-medium text-indigo-900">You have an attempt in progress.</p>
          ) : status.blockedReason ? (
            <p className="text-sm font-medium text-amber-900">{status.blockedReason}</p>
          ) : null}
        </>
      ) : statusQuery.isPending ? (
        <Skeleton className="h-16 w-full rounded-xl" />
      ) : null}
      <div>
        <Button asChild size="lg" className="w-full sm:w-auto">
          <Link to={examPath(courseId)}>
            Go to the final exam
            <ArrowRightIcon aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
