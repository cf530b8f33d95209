import type { Course } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const coursesQueryKey = ["/api/courses"] as const;

/** GET /api/courses: every course for an administrator, newest first. */
async function getCourses(): Promise<Course[]> {
  return apiJson<Course[]>("GET", "/api/courses");
}

const getCoursesQueryOptions = () =>
  queryOptions({ queryKey: coursesQueryKey, queryFn: getCourses });

export function useCourses() {
  return useQuery(getCoursesQueryOptions());
}
