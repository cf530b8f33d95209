import { type Course, type CourseSettingsBody, courseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";
import { invalidateCourseData } from "./invalidate-course-data";

type UpdateCourseSettingsInput = { courseId: string; settings: CourseSettingsBody };

/** PATCH /api/courses/:id/settings: completion rule and credit data. */
async function updateCourseSettings({
  courseId,
  settings,
}: UpdateCourseSettingsInput): Promise<Course> {
  return apiJson(
    courseSchema,
    "PATCH",
    `/api/courses/${encodeURIComponent(courseId)}/settings`,
    settings,
  );
}

export function useUpdateCourseSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCourseSettings,
    onSuccess: (course) => {
      queryClient.setQueryData(courseQueryKey(course.id), course);
      return invalidateCourseData(queryClient);
    },
  });
}
