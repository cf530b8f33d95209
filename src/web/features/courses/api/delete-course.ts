import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";
import { invalidateCourseData } from "./invalidate-course-data";

/** DELETE /api/courses/:id: the course, its modules, enrollments and files. */
async function deleteCourse(courseId: string): Promise<void> {
  await apiRequest("DELETE", `/api/courses/${encodeURIComponent(courseId)}`);
}

export function useDeleteCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCourse,
    onSuccess: (_data, courseId) => {
      queryClient.removeQueries({ queryKey: courseQueryKey(courseId), exact: true });
      return invalidateCourseData(queryClient, { learners: true });
    },
  });
}
