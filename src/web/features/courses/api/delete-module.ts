import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { invalidateCourseData } from "./invalidate-course-data";

type DeleteModuleInput = { courseId: string; moduleId: string };

/** DELETE /api/courses/:id/modules/:moduleId. */
async function deleteModule({ courseId, moduleId }: DeleteModuleInput): Promise<void> {
  await apiRequest(
    "DELETE",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}`,
  );
}

export function useDeleteModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteModule,
    onSuccess: () => invalidateCourseData(queryClient, { learners: true }),
  });
}
