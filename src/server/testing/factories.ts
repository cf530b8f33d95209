import { randomBytes } from "node:crypto";
import { createAuthRepository } from "../people/auth/auth.repository";
import type { NewUserRow, UserRow } from "../people/auth/auth.table";
import { testPasswords } from "./passwords";
import type { TestContext } from "./test-app";
import { cookieFrom } from "./test-app";

export const DEFAULT_PASSWORD = "correct horse";

const unique = () => randomBytes(4).toString("hex");

/** Inserts a user straight through the repository. Pass `password: null` for no password yet. */
export async function buildUser(
  ctx: TestContext,
  overrides: Partial<NewUserRow> & { password?: string | null } = {},
): Promise<UserRow & { password: string | null }> {
  const { password = DEFAULT_PASSWORD, ...values } = overrides;
  const row = await createAuthRepository(ctx.database.db).insertUser({
    name: "Test Learner",
    email: `learner-${unique()}@example.com`,
    role: "learner",
    status: "active",
    isRegisteredByAdmin: true,
    passwordSetup: password !== null,
    passwordHash: password === null ? null : await testPasswords.hash(password),
    ...values,
  });
  if (!row) throw new Error("buildUser: email taken");
  return { ...row, password };
}

export const buildLearner = (ctx: TestContext, overrides: Parameters<typeof buildUser>[1] = {}) =>
  buildUser(ctx, { role: "learner", ...overrides });

export const buildAdmin = (ctx: TestContext, overrides: Parameters<typeof buildUser>[1] = {}) =>
  buildUser(ctx, {
    role: "admin",
    name: "Test Admin",
    email: `admin-${unique()}@example.com`,
    ...overrides,
  });

/** Signs a user in through the real login route and returns the Cookie header. */
export async function signIn(ctx: TestContext, user: { email: string; password: string | null }) {
  const response = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email: user.email, password: user.password },
  });
  if (response.statusCode !== 200) {
    throw new Error(`signIn failed: ${response.statusCode} ${response.body}`);
  }
  return cookieFrom(response);
}
