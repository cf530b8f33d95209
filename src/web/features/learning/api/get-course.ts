import { type Course, courseSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const courseQueryKey = (courseId: string) => ["/api/courses", courseId] as const;

/**
 * GET /api/courses/:id. For a learner the server answers only for published courses they
 * are enrolled in, and 404 'Course not found' for anything else.
 */
async function getCourse(courseId: string): Promise<Course> {
  return apiJson(courseSchema, "GET", `/api/courses/${encodeURIComponent(courseId)}`);
}

const getCourseQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: courseQueryKey(courseId), queryFn: () => getCourse(courseId) });

/** The course; `placeholder` (e.g. from the enrollments list) shows while it loads. */
export function useCourse(courseId: string, placeholder?: Course) {
  return useQuery({ ...getCourseQueryOptions(courseId), placeholderData: placeholder });
}
