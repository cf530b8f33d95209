import type { SetupChecklist } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { setupChecklistQueryKey } from "./get-setup-checklist";

/** POST /api/admin/setup-checklist/dismiss: this administrator puts the checklist away. */
async function dismissSetupChecklist(): Promise<void> {
  await apiRequest("POST", "/api/admin/setup-checklist/dismiss");
}

export function useDismissSetupChecklist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissSetupChecklist,
    onSuccess: () =>
      queryClient.setQueryData<SetupChecklist>(setupChecklistQueryKey, (checklist) =>
        checklist ? { ...checklist, dismissed: true } : checklist,
      ),
  });
}
