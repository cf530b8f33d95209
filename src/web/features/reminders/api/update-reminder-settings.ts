import { type ReminderSettings, reminderSettingsSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { reminderSettingsQueryKey } from "./get-reminder-settings";

/** PUT /api/admin/reminder-settings: answers the settings as stored. */
async function updateReminderSettings(settings: ReminderSettings): Promise<ReminderSettings> {
  return apiJson(
    reminderSettingsSchema,
    "PUT",
    "/api/admin/reminder-settings",
    reminderSettingsSchema.parse(settings),
  );
}

export function useUpdateReminderSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateReminderSettings,
    onSuccess: (settings) => queryClient.setQueryData(reminderSettingsQueryKey, settings),
  });
}
