import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { invalidateQuestionBank } from "./invalidate-question-bank";

/** DELETE /api/courses/:id/questions/:questionId: past attempts keep their own copy. */
async function deleteQuestion({ courseId, questionId }: { courseId: string; questionId: string }) {
  await apiRequest(
    "DELETE",
    `/api/courses/${encodeURIComponent(courseId)}/questions/${encodeURIComponent(questionId)}`,
  );
}

export function useDeleteQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteQuestion,
    onSettled: (_result, _error, { courseId }) => invalidateQuestionBank(queryClient, courseId),
  });
}
