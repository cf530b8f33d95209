import { type Module, type ModuleEditBody, moduleSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { invalidateCourseData } from "./invalidate-course-data";

type UpdateModuleInput = { courseId: string; module: ModuleEditBody };

/** PUT /api/courses/:id/modules/:moduleId with the module's fields. */
async function updateModule({ courseId, module }: UpdateModuleInput): Promise<Module> {
  return apiJson(
    moduleSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(module.id)}`,
    module,
  );
}

export function useUpdateModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateModule,
    onSuccess: () => invalidateCourseData(queryClient),
  });
}
