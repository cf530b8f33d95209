import { type Module, type ModuleRequestBody, moduleSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { invalidateCourseData } from "./invalidate-course-data";

type AddModuleInput = Idempotent<{ courseId: string; module: ModuleRequestBody }>;

/** POST /api/courses/:id/modules: appends a module at the end of the course. */
async function addModule({ courseId, module, idempotencyKey }: AddModuleInput): Promise<Module> {
  return apiJson(
    moduleSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/modules`,
    module,
    { idempotencyKey },
  );
}

/** A new module's id: 'module_' followed by a timestamp (SPEC section 3). */
export function newModuleId(): string {
  return `module_${Date.now()}`;
}

export function useAddModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addModule,
    // Progress percentages depend on the module count, so learners' figures change too.
    onSuccess: () => invalidateCourseData(queryClient, { learners: true }),
  });
}
