import { type Question, questionSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api-client";
import { questionsQueryKey } from "./get-questions";

type ReorderInput = { courseId: string; questionIds: string[] };

/** PUT /api/courses/:id/questions/order: the given questions, in this order, in their slots. */
async function reorderQuestions({ courseId, questionIds }: ReorderInput): Promise<Question[]> {
  return apiJson(
    z.array(questionSchema),
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/questions/order`,
    { questionIds },
  );
}

export function useReorderQuestions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderQuestions,
    onSuccess: (questions, { courseId }) =>
      queryClient.setQueryData(questionsQueryKey(courseId), questions),
    onError: (_error, { courseId }) =>
      queryClient.invalidateQueries({ queryKey: questionsQueryKey(courseId) }),
  });
}
