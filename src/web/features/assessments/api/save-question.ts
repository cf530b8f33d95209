import { type Question, type QuestionBody, questionSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { invalidateQuestionBank } from "./invalidate-question-bank";

type SaveQuestionInput = Idempotent<{
  courseId: string;
  questionId?: string;
  question: QuestionBody;
}>;

/** POST /api/courses/:id/questions (a new question) or PUT …/questions/:questionId (an edit). */
async function saveQuestion({
  courseId,
  questionId,
  question,
  idempotencyKey,
}: SaveQuestionInput): Promise<Question> {
  const base = `/api/courses/${encodeURIComponent(courseId)}/questions`;
  return questionId
    ? apiJson(questionSchema, "PUT", `${base}/${encodeURIComponent(questionId)}`, question)
    : apiJson(questionSchema, "POST", base, question, { idempotencyKey });
}

export function useSaveQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveQuestion,
    onSettled: (_question, _error, { courseId }) => invalidateQuestionBank(queryClient, courseId),
  });
}
