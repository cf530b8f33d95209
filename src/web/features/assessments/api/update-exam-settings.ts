import { type ExamSettingsBody, examSettingsSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { examSettingsQueryKey } from "./get-exam-settings";

type UpdateExamSettingsInput = { courseId: string; settings: ExamSettingsBody };

/** PUT /api/courses/:id/exam-settings: the answer carries the checks for the new settings. */
async function updateExamSettings({ courseId, settings }: UpdateExamSettingsInput) {
  return apiJson(
    examSettingsSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/exam-settings`,
    settings,
  );
}

export function useUpdateExamSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateExamSettings,
    onSuccess: (settings) =>
      queryClient.invalidateQueries({ queryKey: examSettingsQueryKey(settings.courseId) }),
  });
}
