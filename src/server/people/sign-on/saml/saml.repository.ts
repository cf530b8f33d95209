import { lt } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { samlAssertionIds } from "./saml-assertion-ids.table";

export function createSamlRepository(db: Database) {
  return {
    /**
     * Records an assertion as used; false when it already was. Assertions past their time
     * are forgotten first: they would be refused as expired anyway.
     */
    async recordAssertion(input: {
      providerId: string;
      assertionId: string;
      expiresAt: Date;
      now: Date;
    }): Promise<boolean> {
      await db.delete(samlAssertionIds).where(lt(samlAssertionIds.expiresAt, input.now));
      const inserted = await db
        .insert(samlAssertionIds)
        .values({
          providerId: input.providerId,
          assertionId: input.assertionId,
          expiresAt: input.expiresAt,
        })
        .onConflictDoNothing()
        .returning({ assertionId: samlAssertionIds.assertionId });
      return inserted.length === 1;
    },
  };
}
