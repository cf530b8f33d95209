import type { LearnerSummary } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Idempotent, isApiError } from "../../../lib/api-client";
import { enrollLearner } from "./enroll-learner";
import { getLearnerSummary, patchCachedLearner } from "./get-learners";
import { invalidateLearnerData } from "./invalidate-learner-data";

export type EnrollInCoursesResult = {
  enrolled: string[];
  /** Already enrolled: nothing changed for these. */
  alreadyEnrolled: string[];
  failed: string[];
};

/**
 * Enrolls an existing learner in each selected course, one POST per course.
 * `enrollments.already_enrolled` means they already had it (another admin may have been
 * quicker) and counts as done.
 */
export async function enrollInCourses(
  input: Idempotent<{ learner: Pick<LearnerSummary, "id" | "email">; courseIds: string[] }>,
): Promise<EnrollInCoursesResult> {
  const result: EnrollInCoursesResult = { enrolled: [], alreadyEnrolled: [], failed: [] };
  for (const courseId of input.courseIds) {
    try {
      await enrollLearner({
        userId: input.learner.id,
        courseId,
        // One key per course: each enrollment is its own request of the form.
        idempotencyKey: input.idempotencyKey && `${input.idempotencyKey}:${courseId}`,
      });
      result.enrolled.push(courseId);
    } catch (error) {
      if (isApiError(error, "enrollments.already_enrolled")) result.alreadyEnrolled.push(courseId);
      else result.failed.push(courseId);
    }
  }
  return result;
}

/** Enrolls, then refreshes this one learner's figures in the cached lists. */
export function useEnrollInCourses() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrollInCourses,
    onSettled: async (_result, _error, { learner }) => {
      const fresh = await getLearnerSummary(learner).catch(() => undefined);
      if (fresh) patchCachedLearner(queryClient, learner.id, () => fresh);
      await invalidateLearnerData(queryClient, { lists: !fresh });
    },
  });
}
