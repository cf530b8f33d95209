import { signOnUserSchema } from "@contract";
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/** GET /api/sign-on/users/:id: who created a learner, and the providers they are linked to. */
export function useSignOnUser(userId: string) {
  return useQuery({
    queryKey: ["/api/sign-on/users", userId],
    queryFn: () =>
      apiJson(signOnUserSchema, "GET", `/api/sign-on/users/${encodeURIComponent(userId)}`),
    enabled: userId !== "",
  });
}
