import { type FormStepKey, type FormStepSettingsBody, formStepSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { formStepQueryKey } from "./get-form-step";

type SaveFormStepInput = { courseId: string; step: FormStepKey; settings: FormStepSettingsBody };

/**
 * PUT /api/courses/:id/steps/:step: whether the course asks for the step, and its items in
 * their new order. Items sent with their id keep the answers already given to them.
 */
async function saveFormStep({ courseId, step, settings }: SaveFormStepInput) {
  return apiJson(
    formStepSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/steps/${step}`,
    settings,
  );
}

export function useSaveFormStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveFormStep,
    onSuccess: (form, { courseId, step }) => {
      queryClient.setQueryData(formStepQueryKey(courseId, step), form);
    },
  });
}
