import {
  type FormStep,
  type FormStepAnswersBody,
  type FormStepKey,
  formStepAnswersBodySchema,
  messageSchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { courseCompletionQueryKey } from "./get-course-completion";
import { formStepQueryKey } from "./get-form-step";

type SubmitFormStepInput = Idempotent<{ courseId: string; body: FormStepAnswersBody }>;

/** POST /api/courses/:id/steps/:step: the learner's answers, once (201 with the step's thanks). */
async function submitFormStep(
  step: FormStepKey,
  { courseId, body, idempotencyKey }: SubmitFormStepInput,
): Promise<void> {
  await apiJson(
    messageSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/steps/${step}`,
    formStepAnswersBodySchema.parse(body),
    { idempotencyKey },
  );
}

/** The learner's answers to one form step of a course. */
export function useSubmitFormStep(step: FormStepKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SubmitFormStepInput) => submitFormStep(step, input),
    onSuccess: (_none, { courseId, body }) => {
      // The page shows the answers as sent at once; the read below brings the server's record.
      queryClient.setQueryData<FormStep>(formStepQueryKey(courseId, step), (form) =>
        form ? { ...form, answers: body.answers, answeredAt: new Date().toISOString() } : form,
      );
      void queryClient.invalidateQueries({ queryKey: formStepQueryKey(courseId, step) });
    },
    // Also on a refusal: "already answered" means another tab sent it first.
    onSettled: (_none, _error, { courseId }) =>
      queryClient.invalidateQueries({ queryKey: courseCompletionQueryKey(courseId) }),
  });
}
