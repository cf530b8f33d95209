import { type Question, type QuestionBody, questionSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { invalidateQuestionBank } from "./invalidate-question-bank";

type SaveQuestionInput = { courseId: string; questionId?: string; question: QuestionBody };

/** POST /api/courses/:id/questions (a new question) or PUT …/questions/:questionId (an edit). */
async function saveQuestion({ courseId, questionId, question }: SaveQuestionInput) {
  const base = `/api/courses/${encodeURIComponent(courseId)}/questions`;
  const body = questionId
    ? await apiJson<unknown>("PUT", `${base}/${encodeURIComponent(questionId)}`, question)
    : await apiJson<unknown>("POST", base, question);
  return questionSchema.parse(body) satisfies Question;
}

export function useSaveQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveQuestion,
    onSettled: (_question, _error, { courseId }) => invalidateQuestionBank(queryClient, courseId),
  });
}
