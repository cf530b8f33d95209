import { and, count, desc, eq, gt, inArray, lt, ne, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import {
  authTokens,
  loginFailures,
  type NewUserRow,
  sessions,
  type UserRow,
  users,
} from "./auth.table";

/** Data access for users, sessions, tokens and login failures. Pass a transaction to compose. */
export function createAuthRepository(db: Executor) {
  return {
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row;
    },

    async findUserById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async findUserByFirebaseUid(uid: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.firebaseUid, uid)).limit(1);
      return row;
    },

    /**
     * Binds a verified identity-service uid to a user whose uid is still `expected` (null,
     * or a stale placeholder): a concurrent binding makes this match no row. The unique
     * constraint on firebase_uid refuses a uid already bound to another user.
     */
    async bindFirebaseUid(
      id: string,
      uid: string,
      expected: string | null,
    ): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ firebaseUid: uid, updatedAt: new Date() })
        .where(
          and(
            eq(users.id, id),
            expected === null ? sql`${users.firebaseUid} is null` : eq(users.firebaseUid, expected),
          ),
        )
        .returning();
      return row;
    },

    async lockUser(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).for("update");
      return row;
    },

    async deleteUser(id: string, role: UserRow["role"]): Promise<boolean> {
      const rows = await db
        .delete(users)
        .where(and(eq(users.id, id), eq(users.role, role)))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    async findUsersByIds(ids: string[]): Promise<UserRow[]> {
      if (!ids.length) return [];
      return db.select().from(users).where(inArray(users.id, ids));
    },

    /** Inserts a user; returns undefined when the email (or firebase uid) is taken. */
    async insertUser(values: NewUserRow): Promise<UserRow | undefined> {
      const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
      return row;
    },

    async updateUser(id: string, values: Partial<NewUserRow>): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    /**
     * Sets the first password atomically: the `password_setup = false` condition makes a
     * concurrent second setup (or a later one) match no row, so a password is never replaced.
     */
    async completePasswordSetup(
      id: string,
      values: { passwordHash: string; name: string; firebaseUid: string | null },
    ): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...values, passwordSetup: true, updatedAt: new Date() })
        .where(and(eq(users.id, id), eq(users.passwordSetup, false)))
        .returning();
      return row;
    },

    async countAdmins(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, "admin"));
      return row?.n ?? 0;
    },

    /** Serialises admin creation so a one-time key cannot create two first admins. */
    async lockAdminSetup(): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(7311043)`);
    },

    async insertSession(values: typeof sessions.$inferInsert): Promise<void> {
      await db.insert(sessions).values(values);
    },

    /** Runs on every signed-in request: a prepared statement (db/prepared.ts). */
    async findSession(idHash: string) {
      const statement = preparedOnce(db, "auth_find_session", (d) =>
        d
          .select({ session: sessions, user: users })
          .from(sessions)
          .innerJoin(users, eq(users.id, sessions.userId))
          .where(
            and(
              eq(sessions.idHash, sql.placeholder("idHash")),
              gt(sessions.expiresAt, sql.placeholder("now")),
            ),
          )
          .limit(1)
          .prepare("auth_find_session"),
      );
      const [row] = await statement.execute({ idHash, now: new Date().toISOString() });
      return row;
    },

    async touchSession(idHash: string, values: { lastSeenAt: Date; expiresAt: Date }) {
      await db.update(sessions).set(values).where(eq(sessions.idHash, idHash));
    },

    async deleteSession(idHash: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.idHash, idHash));
    },

    /** Ends every session of a user, or every one but `keepIdHash`; answers how many ended. */
    async deleteUserSessions(userId: string, keepIdHash?: string): Promise<number> {
      const ended = await db
        .delete(sessions)
        .where(
          keepIdHash
            ? and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash))
            : eq(sessions.userId, userId),
        )
        .returning({ idHash: sessions.idHash });
      return ended.length;
    },

    /** A user's live sessions, the newest sign-in first. */
    async userSessions(userId: string, now: Date) {
      return db
        .select({
          idHash: sessions.idHash,
          persistent: sessions.persistent,
          createdAt: sessions.createdAt,
          expiresAt: sessions.expiresAt,
          userAgent: sessions.userAgent,
          ip: sessions.ip,
        })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
        .orderBy(desc(sessions.createdAt));
    },

    async deleteExpiredSessions(now: Date): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, now));
    },

    /** Failures for an account inside the window, optionally only those from one address. */
    /** Failures of one source (an address, or `device:<nonce>`), or of every untrusted one. */
    async countLoginFailures(
      email: string,
      since: Date,
      ip?: string,
      options: { untrustedOnly?: boolean } = {},
    ): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(loginFailures)
        .where(
          and(
            eq(loginFailures.email, email),
            ip ? eq(loginFailures.ip, ip) : undefined,
            options.untrustedOnly ? sql`${loginFailures.ip} not like 'device:%'` : undefined,
            gt(loginFailures.createdAt, since),
          ),
        );
      return row?.n ?? 0;
    },

    /** Oldest failure still inside the window: tells when the account is free again. */
    async oldestLoginFailure(email: string, since: Date, ip?: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ at: sql<Date>`min(${loginFailures.createdAt})`.mapWith(loginFailures.createdAt) })
        .from(loginFailures)
        .where(
          and(
            eq(loginFailures.email, email),
            ip ? eq(loginFailures.ip, ip) : undefined,
            gt(loginFailures.createdAt, since),
          ),
        );
      return row?.at ?? undefined;
    },

    /** Records one attempt as a failure; returns its id so it can be withdrawn. */
    async insertLoginFailure(email: string, ip: string): Promise<string> {
      const [row] = await db
        .insert(loginFailures)
        .values({ email, ip })
        .returning({ id: loginFailures.id });
      return row!.id;
    },

    async deleteLoginFailure(id: string): Promise<void> {
      await db.delete(loginFailures).where(eq(loginFailures.id, id));
    },

    async clearLoginFailures(email: string, ip: string): Promise<void> {
      await db
        .delete(loginFailures)
        .where(and(eq(loginFailures.email, email), eq(loginFailures.ip, ip)));
    },

    async purgeLoginFailures(before: Date): Promise<void> {
      await db.delete(loginFailures).where(lt(loginFailures.createdAt, before));
    },

    async insertToken(values: typeof authTokens.$inferInsert): Promise<void> {
      await db.insert(authTokens).values(values);
    },

    /** Marks a token used and returns it, only if unused, unexpired and of that kind. */
    async consumeToken(tokenHash: string, kind: "invite" | "reset", now: Date) {
      const [row] = await db
        .update(authTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(authTokens.tokenHash, tokenHash),
            eq(authTokens.kind, kind),
            sql`${authTokens.usedAt} is null`,
            gt(authTokens.expiresAt, now),
          ),
        )
        .returning();
      return row;
    },

    /**
     * Inserts a token unless `max` of that kind were issued to the user since `since`. The
     * user's row is locked first, so concurrent requests cannot both slip under the cap.
     */
    async insertTokenCapped(
      values: typeof authTokens.$inferInsert & { kind: "invite" | "reset" },
      cap: { max: number; since: Date },
    ): Promise<boolean> {
      await db.execute(sql`select 1 from users where id = ${values.userId} for update`);
      const [recent] = await db
        .select({ n: count() })
        .from(authTokens)
        .where(
          and(
            eq(authTokens.userId, values.userId),
            eq(authTokens.kind, values.kind),
            gt(authTokens.createdAt, cap.since),
          ),
        );
      if ((recent?.n ?? 0) >= cap.max) return false;
      await db.insert(authTokens).values(values);
      return true;
    },

    /** Marks every unused token of a kind of one user as used (e.g. after a password change). */
    async retireTokens(userId: string, kind: "invite" | "reset", now: Date): Promise<void> {
      await db
        .update(authTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(authTokens.userId, userId),
            eq(authTokens.kind, kind),
            sql`${authTokens.usedAt} is null`,
          ),
        );
    },

    async findUsableToken(tokenHash: string, kind: "invite" | "reset", now: Date) {
      const [row] = await db
        .select()
        .from(authTokens)
        .where(
          and(
            eq(authTokens.tokenHash, tokenHash),
            eq(authTokens.kind, kind),
            sql`${authTokens.usedAt} is null`,
            gt(authTokens.expiresAt, now),
          ),
        )
        .limit(1);
      return row;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
