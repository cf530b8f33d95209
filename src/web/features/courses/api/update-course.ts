import { type Course, courseSchema, type UpdateCourseBody } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";
import { invalidateCourseData } from "./invalidate-course-data";

type UpdateCourseInput = { courseId: string; course: UpdateCourseBody };

/** PUT /api/courses/:id: title, description, category, duration and thumbnail. */
async function updateCourse({ courseId, course }: UpdateCourseInput): Promise<Course> {
  return apiJson(courseSchema, "PUT", `/api/courses/${encodeURIComponent(courseId)}`, course);
}

export function useUpdateCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCourse,
    onSuccess: (course) => {
      queryClient.setQueryData(courseQueryKey(course.id), course);
      return invalidateCourseData(queryClient, { learners: true });
    },
  });
}
