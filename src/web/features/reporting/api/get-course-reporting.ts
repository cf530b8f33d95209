import { type CourseReporting, courseReportingSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const courseReportingQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "reporting"] as const;

/** GET /api/courses/:id/reporting: each credit type and the regulators it reports to. */
async function getCourseReporting(courseId: string): Promise<CourseReporting> {
  return apiJson(
    courseReportingSchema,
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/reporting`,
  );
}

const getCourseReportingQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: courseReportingQueryKey(courseId),
    queryFn: () => getCourseReporting(courseId),
  });

export function useCourseReporting(courseId: string) {
  return useQuery(getCourseReportingQueryOptions(courseId));
}
