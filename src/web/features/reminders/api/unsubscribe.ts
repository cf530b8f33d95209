import { unsubscribeBodySchema, unsubscribeResponseSchema } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/** POST /api/reminders/unsubscribe: stops reminder emails for the link's learner. */
async function unsubscribe(token: string) {
  return apiJson(
    unsubscribeResponseSchema,
    "POST",
    "/api/reminders/unsubscribe",
    unsubscribeBodySchema.parse({ token }),
  );
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
