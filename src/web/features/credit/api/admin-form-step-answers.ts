import type { FormStepKey } from "@contract";

/**
 * GET /api/courses/:id/steps/:step/answers as CSV: every learner's answers with their name
 * and email, for the provider's follow-up.
 */
export const formStepAnswersCsvUrl = (courseId: string, step: FormStepKey) =>
  `/api/courses/${encodeURIComponent(courseId)}/steps/${step}/answers?format=csv`;
