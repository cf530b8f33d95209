import {
  type EnrollmentWithRelations,
  enrollmentWithRelationsSchema,
  type ProgressUpdateBody,
  progressAfterCompleting,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, errorCodeOf } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";
import { myEnrollmentsQueryKey } from "./get-my-enrollments";

type CompleteModuleInput = {
  userId: string;
  courseId: string;
  moduleId: string;
  /** Modules completed before this one, and the course's module count (for `progress`). */
  completedBefore: number;
  totalModules: number;
};

/**
 * POST /api/progress/update. The body carries the spec's `progress` (SPEC section 4), but
 * the server computes its own and answers with the updated enrollment.
 */
async function completeModule(input: CompleteModuleInput): Promise<EnrollmentWithRelations> {
  const body: ProgressUpdateBody = {
    userId: input.userId,
    courseId: input.courseId,
    moduleId: input.moduleId,
    progress: progressAfterCompleting(input.completedBefore, input.totalModules),
  };
  return apiJson(enrollmentWithRelationsSchema, "POST", "/api/progress/update", body);
}

/** Marks a module complete and writes the answer into the caches at once. */
export function useCompleteModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeModule,
    onSuccess: (updated) => {
      // The enrollment list feeds both the dashboard and the player's locks, so the next
      // module unlocks and the dashboard counts change without another request.
      queryClient.setQueryData<EnrollmentWithRelations[]>(
        myEnrollmentsQueryKey(updated.userId),
        (list) => list?.map((enrollment) => (enrollment.id === updated.id ? updated : enrollment)),
      );
      queryClient.setQueryData(courseQueryKey(updated.courseId), updated.course);
    },
    onError: (error, input) => {
      switch (errorCodeOf(error)) {
        // The course was taken offline, or the learner's standing changed in another tab:
        // what the player shows is out of date, so it reads the course and the list again.
        case "courses.unpublished":
        case "courses.module_locked":
        case "credit.acknowledge_first":
        case "credit.step_out_of_order":
          return Promise.all([
            queryClient.invalidateQueries({ queryKey: myEnrollmentsQueryKey(input.userId) }),
            queryClient.invalidateQueries({ queryKey: courseQueryKey(input.courseId) }),
          ]);
        // The module has review questions the page did not show yet: read them again
        // (under the module's address, whichever feature shows them).
        case "review.answer_first":
          return queryClient.invalidateQueries({
            queryKey: ["/api/courses", input.courseId, "modules", input.moduleId],
          });
        default:
          return undefined;
      }
    },
  });
}
