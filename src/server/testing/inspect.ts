import { count, eq } from "drizzle-orm";
import { loginFailures, sessions, type UserRow, users } from "../people/auth/auth.table";
import type { TestContext } from "./test-app";

/** Reads straight from the database, so tests can prove what a request did (or did not) change. */
export async function userByEmail(ctx: TestContext, email: string): Promise<UserRow | undefined> {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email));
  return row;
}

export async function userById(ctx: TestContext, id: string): Promise<UserRow | undefined> {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function countUsers(ctx: TestContext): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

/** Live and expired sessions, of one user or of everyone. */
export async function countSessions(ctx: TestContext, userId?: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(sessions)
    .where(userId ? eq(sessions.userId, userId) : undefined);
  return row?.n ?? 0;
}

export async function sessionsOf(ctx: TestContext, userId: string) {
  return ctx.database.db.select().from(sessions).where(eq(sessions.userId, userId));
}

export async function countLoginFailures(ctx: TestContext): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(loginFailures);
  return row?.n ?? 0;
}

/** Every key of a JSON value, at any depth: to prove no secret field leaves the server. */
export function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...allKeys(inner)]);
  }
  return [];
}
