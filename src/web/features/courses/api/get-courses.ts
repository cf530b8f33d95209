import { type Course, courseSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api-client";

export const coursesQueryKey = ["/api/courses"] as const;

/** GET /api/courses: every course for an administrator, newest first. */
async function getCourses(): Promise<Course[]> {
  return apiJson(z.array(courseSchema), "GET", "/api/courses");
}

const getCoursesQueryOptions = () =>
  queryOptions({ queryKey: coursesQueryKey, queryFn: getCourses });

export function useCourses() {
  return useQuery(getCoursesQueryOptions());
}
