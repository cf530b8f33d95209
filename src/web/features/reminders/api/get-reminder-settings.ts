import { type ReminderSettings, reminderSettingsSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const reminderSettingsQueryKey = ["/api/admin/reminder-settings"] as const;

/** GET /api/admin/reminder-settings: the portal's learner reminder settings. */
async function getReminderSettings(): Promise<ReminderSettings> {
  return apiJson(reminderSettingsSchema, "GET", "/api/admin/reminder-settings");
}

const getReminderSettingsQueryOptions = () =>
  queryOptions({ queryKey: reminderSettingsQueryKey, queryFn: getReminderSettings });

export function useReminderSettings() {
  return useQuery(getReminderSettingsQueryOptions());
}
