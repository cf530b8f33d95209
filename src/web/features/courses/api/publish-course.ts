import { type Course, courseSchema, PUBLISH_CONFIRMATIONS } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";
import { invalidateCourseData } from "./invalidate-course-data";

type PublishCourseInput = {
  courseId: string;
  /** The administrator confirmed publishing a credit course whose completion is Manual. */
  confirmManualCompletion?: boolean;
  /** Why the course offers more credit than its content's length supports (the audit trail keeps it). */
  creditLengthReason?: string;
};

/**
 * PATCH /api/courses/:id/publish: Draft becomes Published (needs at least one module). A
 * credit course completed manually is refused (409) unless the confirmation is sent, and one
 * offering more credit than its content supports unless a reason is.
 */
async function publishCourse({
  courseId,
  confirmManualCompletion = false,
  creditLengthReason,
}: PublishCourseInput): Promise<Course> {
  const query = new URLSearchParams();
  if (confirmManualCompletion) query.set("confirm", PUBLISH_CONFIRMATIONS.manualCompletion);
  if (creditLengthReason) query.set("creditLengthReason", creditLengthReason);
  const search = query.size ? `?${query}` : "";
  return apiJson(
    courseSchema,
    "PATCH",
    `/api/courses/${encodeURIComponent(courseId)}/publish${search}`,
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
