import { SIGNED_IN_COOKIE, type User, userResponseSchema } from "@contract";
import { type QueryFunctionContext, queryOptions, useQuery } from "@tanstack/react-query";
import { getQueryFn } from "../../../lib/api-client";

export const meQueryKey = ["/api/auth/me"] as const;

const readMe = getQueryFn(userResponseSchema, { on401: "returnNull" });

/** Whether the server's hint cookie says a session may be there (set and cleared with it). */
const mayBeSignedIn = () =>
  document.cookie.split(";").some((c) => c.trim().startsWith(`${SIGNED_IN_COOKIE}=`));

/**
 * The signed-in user, or null. SPEC section 7: any failure means there is no session. A
 * visitor without the hint cookie is signed out: the server is not asked, so no page of
 * theirs logs a 401.
 */
async function getMe(context: QueryFunctionContext): Promise<User | null> {
  if (!mayBeSignedIn()) return null;
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
