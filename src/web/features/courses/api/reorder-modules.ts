import { type Course, courseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { courseQueryKey } from "./get-course";
import { invalidateCourseData } from "./invalidate-course-data";

type ReorderModulesInput = { courseId: string; moduleIds: string[] };

/** PUT /api/courses/:id/modules/order: every module of the course, in its new order. */
async function reorderModules({ courseId, moduleIds }: ReorderModulesInput): Promise<Course> {
  return apiJson(
    courseSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/modules/order`,
    {
      moduleIds,
    },
  );
}

/**
 * Shows the new order at once and puts the previous one back if the server refuses it
 * (another administrator changed the modules meanwhile, or the connection failed).
 */
export function useReorderModules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderModules,
    // One order at a time, in the order asked: each request names the whole list.
    scope: { id: "module-order" },
    onMutate: async ({ courseId, moduleIds }) => {
      const key = courseQueryKey(courseId);
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const previous = queryClient.getQueryData<Course>(key);
      if (previous) {
        const byId = new Map(previous.modules.map((m) => [m.id, m]));
        const modules = moduleIds.flatMap((id) => byId.get(id) ?? []);
        queryClient.setQueryData<Course>(key, { ...previous, modules });
      }
      return { previous };
    },
    onError: (_error, { courseId }, context) => {
      if (context?.previous) queryClient.setQueryData(courseQueryKey(courseId), context.previous);
    },
    onSuccess: (course) => queryClient.setQueryData(courseQueryKey(course.id), course),
    onSettled: () => invalidateCourseData(queryClient),
  });
}
