import { type EvaluationFormBody, evaluationFormSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { evaluationResultsQueryKey } from "./admin-get-evaluation-results";
import { evaluationQueryKey } from "./get-evaluation";

type SaveEvaluationFormInput = { courseId: string; form: EvaluationFormBody };

/**
 * PUT /api/courses/:id/evaluation: the items in their new order. Items sent with their id keep
 * the answers already given to them.
 */
async function saveEvaluationForm({ courseId, form }: SaveEvaluationFormInput) {
  return apiJson(
    evaluationFormSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/evaluation`,
    form,
  );
}

export function useSaveEvaluationForm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveEvaluationForm,
    onSuccess: (form, { courseId }) => {
      queryClient.setQueryData(evaluationQueryKey(courseId), form);
      // The results list the items by their current text and order.
      return queryClient.invalidateQueries({ queryKey: evaluationResultsQueryKey(courseId) });
    },
  });
}
