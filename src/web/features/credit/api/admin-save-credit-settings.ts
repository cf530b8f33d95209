import { type CreditSettingsBody, creditSettingsSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { setActivityCredit } from "./admin-set-activity-credit";

type SaveCreditSettingsInput = { courseId: string; settings: CreditSettingsBody };

/** PUT /api/courses/:id/credit-settings: what the course's certificates print. */
async function saveCreditSettings({ courseId, settings }: SaveCreditSettingsInput) {
  return apiJson(
    creditSettingsSchema,
    "PUT",
    `/api/courses/${encodeURIComponent(courseId)}/credit-settings`,
    settings,
  );
}

export function useSaveCreditSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCreditSettings,
    onSuccess: (credit, { courseId }) => setActivityCredit(queryClient, courseId, credit),
  });
}
