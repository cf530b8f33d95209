import { and, asc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type IdentityProviderRow, identityProviders } from "./identity-providers.table";
import { signOnRequests } from "./sign-on-requests.table";
import { userIdentities } from "./user-identities.table";

export function createSignOnRepository(db: Executor) {
  return {
    listProviders: () => db.select().from(identityProviders).orderBy(asc(identityProviders.name)),

    async findProvider(id: string): Promise<IdentityProviderRow | undefined> {
      const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, id));
      return row;
    },

    /** The provider serving an email domain, if any: domains are served by one provider. */
    async findProviderByDomain(domain: string): Promise<IdentityProviderRow | undefined> {
      const [row] = await db
        .select()
        .from(identityProviders)
        .where(sql`${domain} = any(${identityProviders.domains})`)
        .limit(1);
      return row;
    },

    async insertProvider(values: typeof identityProviders.$inferInsert) {
      const [row] = await db.insert(identityProviders).values(values).returning();
      return row!;
    },

    async updateProvider(id: string, values: Partial<typeof identityProviders.$inferInsert>) {
      const [row] = await db
        .update(identityProviders)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(identityProviders.id, id))
        .returning();
      return row;
    },

    async deleteProvider(id: string) {
      const [row] = await db
        .delete(identityProviders)
        .where(eq(identityProviders.id, id))
        .returning();
      return row;
    },

    async insertRequest(values: typeof signOnRequests.$inferInsert) {
      await db.insert(signOnRequests).values(values);
    },

    /** Marks the request used and returns it: once, from the browser that started it, in time. */
    async takeRequest(input: {
      stateHash: string;
      providerId: string;
      bindingHash: string;
      now: Date;
    }) {
      const [row] = await db
        .update(signOnRequests)
        .set({ usedAt: input.now })
        .where(
          and(
            eq(signOnRequests.stateHash, input.stateHash),
            eq(signOnRequests.providerId, input.providerId),
            eq(signOnRequests.bindingHash, input.bindingHash),
            isNull(signOnRequests.usedAt),
            gt(signOnRequests.expiresAt, input.now),
          ),
        )
        .returning();
      return row;
    },

    deleteExpiredRequests: (before: Date) =>
      db.delete(signOnRequests).where(lt(signOnRequests.expiresAt, before)),

    async findIdentity(providerId: string, subject: string) {
      const [row] = await db
        .select()
        .from(userIdentities)
        .where(and(eq(userIdentities.providerId, providerId), eq(userIdentities.subject, subject)));
      return row;
    },

    async findUserIdentity(providerId: string, userId: string) {
      const [row] = await db
        .select()
        .from(userIdentities)
        .where(and(eq(userIdentities.providerId, providerId), eq(userIdentities.userId, userId)));
      return row;
    },

    /** Binds a subject to a user; false when the subject was bound meanwhile. */
    async insertIdentity(values: { providerId: string; subject: string; userId: string }) {
      const rows = await db.insert(userIdentities).values(values).onConflictDoNothing().returning();
      return rows.length > 0;
    },

    linksOf: (userId: string) =>
      db
        .select({
          providerId: userIdentities.providerId,
          name: identityProviders.name,
          linkedAt: userIdentities.createdAt,
        })
        .from(userIdentities)
        .innerJoin(identityProviders, eq(identityProviders.id, userIdentities.providerId))
        .where(eq(userIdentities.userId, userId))
        .orderBy(asc(identityProviders.name)),
  };
}
