import { type Course, type CreateCourseBody, courseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { invalidateCourseData } from "./invalidate-course-data";

/** POST /api/courses: a new draft course without modules. */
async function createCourse({
  idempotencyKey,
  ...body
}: Idempotent<CreateCourseBody>): Promise<Course> {
  return apiJson(courseSchema, "POST", "/api/courses", body, { idempotencyKey });
}

export function useCreateCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCourse,
    onSuccess: () => invalidateCourseData(queryClient),
  });
}
