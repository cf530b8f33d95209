import { QueryBuilder } from "drizzle-orm/pg-core";
import { users } from "./auth.table";

/**
 * Every user as other features' lists, reports and mails may read them: what a user is shown
 * as (the fields of `toUser`), never a password hash. A subquery they join in their own
 * statement; PostgreSQL reads it as the users table itself, with the same indexes.
 */
export const userAccounts = new QueryBuilder()
  .select({
    id: users.id,
    name: users.name,
    email: users.email,
    phone: users.phone,
    role: users.role,
    status: users.status,
    createdAt: users.createdAt,
    firebaseUid: users.firebaseUid,
    isRegisteredByAdmin: users.isRegisteredByAdmin,
    passwordSetup: users.passwordSetup,
    createdBySignOn: users.createdBySignOn,
  })
  .from(users)
  .as("user_accounts");
