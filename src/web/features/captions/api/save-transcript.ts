import { moduleMediaSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { setModuleMedia } from "./set-module-media";

type SaveTranscriptInput = { courseId: string; moduleId: string; transcript: string };

/** PUT /api/courses/:id/modules/:moduleId/transcript; an empty transcript removes it. */
async function saveTranscript({ courseId, moduleId, transcript }: SaveTranscriptInput) {
  return apiJson(
    moduleMediaSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/transcript`,
    { transcript },
  );
}

export function useSaveTranscript() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTranscript,
    onSuccess: (media, key) => setModuleMedia(queryClient, key, media),
  });
}
