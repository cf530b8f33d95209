import { apiRequest } from "../../../lib/api-client";

/** POST /api/auth/logout: ends the server session (no body). */
export async function logout(): Promise<void> {
  await apiRequest("POST", "/api/auth/logout");
}
