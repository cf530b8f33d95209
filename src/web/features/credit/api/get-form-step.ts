import { type FormStep, type FormStepKey, formStepSchema } from "@contract";
import { queryOptions } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const formStepQueryKey = (courseId: string, step: FormStepKey) =>
  ["/api/courses", courseId, "steps", step] as const;

/**
 * GET /api/courses/:id/steps/:step: the course's form for the step, whether it asks for it,
 * and the learner's own answers once given (none for an administrator).
 */
async function getFormStep(courseId: string, step: FormStepKey): Promise<FormStep> {
  return apiJson(
    formStepSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/steps/${step}`,
  );
}

export const getFormStepQueryOptions = (courseId: string, step: FormStepKey) =>
  queryOptions({
    queryKey: formStepQueryKey(courseId, step),
    queryFn: () => getFormStep(courseId, step),
  });
