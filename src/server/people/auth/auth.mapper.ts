import type { User } from "../../../contract";
import type { UserRow } from "./auth.table";

/** The only way a user leaves the server: no hash, no session data. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    firebaseUid: row.firebaseUid,
    isRegisteredByAdmin: row.isRegisteredByAdmin,
    passwordSetup: row.passwordSetup,
  };
}
