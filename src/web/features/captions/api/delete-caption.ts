import { moduleMediaSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { setModuleMedia } from "./set-module-media";

type DeleteCaptionInput = { courseId: string; moduleId: string; language: string };

/** DELETE /api/courses/:id/modules/:moduleId/captions/:language. */
async function deleteCaption({ courseId, moduleId, language }: DeleteCaptionInput) {
  return apiJson(
    moduleMediaSchema,
    "DELETE",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/captions/${encodeURIComponent(language)}`,
  );
}

export function useDeleteCaption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCaption,
    onSuccess: (media, key) => setModuleMedia(queryClient, key, media),
  });
}
