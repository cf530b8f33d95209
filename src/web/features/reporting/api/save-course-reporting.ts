import {
  type CourseReporting,
  type CourseReportingInput,
  courseReportingBodySchema,
  courseReportingSchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseReportingQueryKey } from "./get-course-reporting";
import { regulatorsQueryKey } from "./get-regulators";

/** PUT /api/courses/:id/reporting: the regulators of the types named. */
async function saveCourseReporting(input: {
  courseId: string;
  body: CourseReportingInput;
}): Promise<CourseReporting> {
  return apiJson(
    courseReportingSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(input.courseId)}/reporting`,
    courseReportingBodySchema.parse(input.body),
  );
}

export function useSaveCourseReporting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCourseReporting,
    onSuccess: (reporting) => {
      queryClient.setQueryData(courseReportingQueryKey(reporting.courseId), reporting);
      return queryClient.invalidateQueries({ queryKey: regulatorsQueryKey });
    },
  });
}
