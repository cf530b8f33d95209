import { type User, userResponseSchema } from "@contract";
import { type QueryFunctionContext, queryOptions, useQuery } from "@tanstack/react-query";
import { getQueryFn } from "../../../lib/api-client";

export const meQueryKey = ["/api/auth/me"] as const;

const readMe = getQueryFn(userResponseSchema, { on401: "returnNull" });

/** The signed-in user, or null. SPEC section 7: any failure means there is no session. */
async function getMe(context: QueryFunctionContext): Promise<User | null> {
  try {
    const data = await readMe(context);
    return data?.user ?? null;
  } catch {
    return null;
  }
}

export const getMeQueryOptions = () => queryOptions({ queryKey: meQueryKey, queryFn: getMe });

export function useMe() {
  return useQuery(getMeQueryOptions());
}
