import { type CourseCreditBody, courseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

type SaveCourseCreditInput = { courseId: string; credit: CourseCreditBody };

/** PUT /api/courses/:id/credit: the credit types the course offers and their bodies. */
async function saveCourseCredit({ courseId, credit }: SaveCourseCreditInput) {
  return apiJson(
    courseSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/credit`,
    credit,
  );
}

export function useSaveCourseCredit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCourseCredit,
    // The course, its activity, its exam's publish checks and the catalogue all show the
    // credit offered: everything under the course is read again.
    onSuccess: (_course, { courseId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["/api/courses", courseId] }),
        queryClient.invalidateQueries({ queryKey: ["/api/courses"], exact: true }),
      ]),
  });
}
