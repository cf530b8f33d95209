import { logoutResponseSchema } from "@contract";
import { apiJson } from "../../../lib/api-client";

/**
 * POST /api/auth/logout: ends the server session (no body). Answers where the browser goes
 * next when the session came from an identity provider with single logout.
 */
export async function logout(): Promise<string | undefined> {
  const { redirectTo } = await apiJson(logoutResponseSchema, "POST", "/api/auth/logout");
  return redirectTo;
}
