import { type Course, courseSchema, PUBLISH_CONFIRMATIONS } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";
import { invalidateCourseData } from "./invalidate-course-data";

type PublishCourseInput = {
  courseId: string;
  /** The administrator confirmed publishing a credit course whose completion is Manual. */
  confirmManualCompletion?: boolean;
};

/**
 * PATCH /api/courses/:id/publish: Draft becomes Published (needs at least one module). A
 * credit course completed manually is refused (409) unless the confirmation is sent.
 */
async function publishCourse({
  courseId,
  confirmManualCompletion = false,
}: PublishCourseInput): Promise<Course> {
  const query = confirmManualCompletion ? `?confirm=${PUBLISH_CONFIRMATIONS.manualCompletion}` : "";
  return apiJson(
    courseSchema,
    "PATCH",
    `/api/courses/${encodeURIComponent(courseId)}/publish${query}`,
  );
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
