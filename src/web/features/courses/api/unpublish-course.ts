import { type Course, courseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";
import { invalidateCourseData } from "./invalidate-course-data";

/** PATCH /api/courses/:id/unpublish: Published goes back to Draft; learners keep their records. */
async function unpublishCourse(courseId: string): Promise<Course> {
  return apiJson(courseSchema, "PATCH", `/api/courses/${encodeURIComponent(courseId)}/unpublish`);
}

export function useUnpublishCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unpublishCourse,
    onSuccess: (course) => {
      queryClient.setQueryData(courseQueryKey(course.id), course);
      return invalidateCourseData(queryClient);
    },
  });
}
