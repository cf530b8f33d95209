import { type Course, courseSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { coursesQueryKey } from "./get-courses";

export const courseQueryKey = (courseId: string) => [...coursesQueryKey, courseId] as const;

/** GET /api/courses/:id: one course with its modules in order. */
async function getCourse(courseId: string): Promise<Course> {
  return apiJson(courseSchema, "GET", `/api/courses/${encodeURIComponent(courseId)}`);
}

const getCourseQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: courseQueryKey(courseId), queryFn: () => getCourse(courseId) });

export function useCourse(courseId: string) {
  return useQuery(getCourseQueryOptions(courseId));
}
