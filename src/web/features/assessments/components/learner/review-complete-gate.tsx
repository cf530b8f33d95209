import { ASSESSMENT_MESSAGES } from "@contract";
import { ListChecksIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useReview } from "../../api/get-review";

/**
 * 'Mark as Complete' only once the module's review questions are answered: until then the
 * button gives way to what is missing, so the learner is never refused after pressing it.
 * The server refuses the completion all the same (review.answer_first).
 */
export function ReviewCompleteGate({
  courseId,
  moduleId,
  action,
}: {
  courseId: string;
  moduleId: string;
  action: ReactNode;
}) {
  // Shares the review card's query: answering the questions brings the button back.
  const { data } = useReview(courseId, moduleId);
  if (!data || data.questions.length === 0 || data.answered) return action;
  return (
    <p
      data-testid="complete-blocked"
      className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-950 sm:max-w-sm"
    >
      <ListChecksIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {ASSESSMENT_MESSAGES.reviewFirst}
    </p>
  );
}
