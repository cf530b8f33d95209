import { type Course, QUESTION_KIND_LABELS, type Question } from "@contract";
import { CircleCheckIcon, CircleIcon } from "lucide-react";
import { Badge } from "../../../../components/ui/badge";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../../../components/ui/dialog";
import { cn } from "../../../../lib/utils";
import { POOL_LABELS } from "../../admin-labels";

/** A question as learners meet it, with the right answers, feedback and explanation marked. */
export function QuestionPreviewDialog({
  course,
  question,
  onOpenChange,
}: {
  course: Course;
  question: Question | null;
  onOpenChange: (open: boolean) => void;
}) {
  const module = course.modules.find((m) => m.id === question?.moduleId);
  return (
    <Dialog open={question !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Question preview</DialogTitle>
          <DialogDescription className="flex flex-wrap items-center gap-1.5">
            <Badge variant="secondary">{question ? POOL_LABELS[question.pool] : ""}</Badge>
            <Badge variant="outline">{question ? QUESTION_KIND_LABELS[question.kind] : ""}</Badge>
            {module ? <span>{module.title}</span> : null}
          </DialogDescription>
        </DialogHeader>
        {question ? (
          <div className="grid gap-4">
            <p className="text-[15px] leading-relaxed font-medium break-words text-zinc-950">
              {question.text}
            </p>
            <ul className="grid gap-2" aria-label="Options">
              {question.options.map((option) => (
                <li
                  key={option.id}
                  className={cn(
                    "grid gap-1 rounded-xl border px-3 py-2.5 text-sm",
                    option.correct
                      ? "border-emerald-200 bg-emerald-50 text-emerald-950"
                      : "border-zinc-200 text-zinc-900",
                  )}
                >
                  <span className="flex items-start gap-2">
                    {option.correct ? (
                      <CircleCheckIcon
                        className="mt-0.5 size-4 shrink-0 text-emerald-700"
                        aria-hidden="true"
                      />
                    ) : (
                      <CircleIcon
                        className="mt-0.5 size-4 shrink-0 text-zinc-400"
                        aria-hidden="true"
                      />
                    )}
                    <span className="break-words">
                      {option.text}
                      {option.correct ? <span className="sr-only"> (correct)</span> : null}
                    </span>
                  </span>
                  {option.feedback ? (
                    <span className="pl-6 text-xs text-zinc-700">{option.feedback}</span>
                  ) : null}
                </li>
              ))}
            </ul>
            {question.explanation ? (
              <p className="rounded-xl bg-zinc-50 px-3 py-2.5 text-sm text-zinc-700">
                <span className="font-medium text-zinc-900">Explanation: </span>
                {question.explanation}
              </p>
            ) : null}
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
