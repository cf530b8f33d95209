import { activeSessionsSchema, endedSessionsSchema } from "@contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson, apiRequest } from "../../../lib/api-client";

const sessionsKey = ["/api/auth/sessions"] as const;

/** GET /api/auth/sessions: each browser or device signed in as the user, this one marked. */
export function useOwnSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: () => apiJson(activeSessionsSchema, "GET", "/api/auth/sessions"),
  });
}

/** DELETE /api/auth/sessions/:id: signs out one other browser or device. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest("DELETE", `/api/auth/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/** POST /api/auth/sessions/end-others: signs out every browser and device but this one. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson(endedSessionsSchema, "POST", "/api/auth/sessions/end-others"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
