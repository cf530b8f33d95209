import { type Course, courseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";
import { invalidateCourseData } from "./invalidate-course-data";

/** PATCH /api/courses/:id/publish: Draft becomes Published (needs at least one module). */
async function publishCourse(courseId: string): Promise<Course> {
  return apiJson(courseSchema, "PATCH", `/api/courses/${encodeURIComponent(courseId)}/publish`);
}

export function usePublishCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishCourse,
    onSuccess: (course) => {
      queryClient.setQueryData(courseQueryKey(course.id), course);
      return invalidateCourseData(queryClient);
    },
  });
}
