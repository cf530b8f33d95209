import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type OrganisationProfileRow, organisationProfile } from "./organisation.table";

export type OrganisationValues = Pick<
  OrganisationProfileRow,
  "name" | "logoId" | "address" | "contactEmail" | "dateFormat"
>;

/** The portal's one organisation profile row. */
export function createOrganisationRepository(db: Executor) {
  return {
    async find(): Promise<OrganisationProfileRow | undefined> {
      const [row] = await db
        .select()
        .from(organisationProfile)
        .where(eq(organisationProfile.id, 1));
      return row;
    },

    async save(values: OrganisationValues): Promise<OrganisationProfileRow> {
      const [row] = await db
        .insert(organisationProfile)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({
          target: organisationProfile.id,
          set: { ...values, updatedAt: sql`now()` },
        })
        .returning();
      return row!;
    },
  };
}
