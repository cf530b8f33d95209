import { eq, inArray } from "drizzle-orm";
import { type CreditTotal, creditTotals, type StoredClaimedCredit } from "../../../contract";
import { catalogueTypeNames, creditTypeCourses, currentCatalogueTypes } from "../../catalogue";
import type { Executor } from "../../db/client";
import { attestationRecords, claimedCredits } from "../attestations/attestations.read-model";

interface CertifiedCredit {
  enrollmentId: string | null;
  credit: Pick<StoredClaimedCredit, "creditTypeId" | "catalogueTypeId" | "name" | "amount">;
}

/**
 * A transcript's totals, one per catalogue type. A certificate keeps the words it printed,
 * so its credit is placed by the catalogue type it was issued with, as it stands after any
 * merge (a course that later offers another type moves nothing already earned); else by the
 * learner's claim (which a merge moves), else by the course's type; credit none of these
 * links to the catalogue adds up by its name.
 */
export async function catalogueTotals(
  db: Executor,
  certified: CertifiedCredit[],
): Promise<CreditTotal[]> {
  const enrollmentIds = [...new Set(certified.flatMap((c) => c.enrollmentId ?? []))];
  const typeIds = [...new Set(certified.flatMap((c) => c.credit.creditTypeId ?? []))];
  const [claims, offered] = await Promise.all([
    enrollmentIds.length
      ? db
          .select({
            enrollmentId: attestationRecords.enrollmentId,
            creditTypeId: claimedCredits.creditTypeId,
            name: claimedCredits.name,
            catalogueTypeId: claimedCredits.catalogueTypeId,
          })
          .from(claimedCredits)
          .innerJoin(attestationRecords, eq(attestationRecords.id, claimedCredits.attestationId))
          .where(inArray(attestationRecords.enrollmentId, enrollmentIds))
      : [],
    typeIds.length
      ? db
          .select({
            creditTypeId: creditTypeCourses.creditTypeId,
            catalogueTypeId: creditTypeCourses.catalogueTypeId,
          })
          .from(creditTypeCourses)
          .where(inArray(creditTypeCourses.creditTypeId, typeIds))
      : [],
  ]);
  const claimKey = (enrollmentId: string | null, typeId: string | null, name: string) =>
    `${enrollmentId}\u0000${typeId ?? `name:${name}`}`;
  const byClaim = new Map(
    claims.map((c) => [claimKey(c.enrollmentId, c.creditTypeId, c.name), c.catalogueTypeId]),
  );
  const byType = new Map(offered.map((o) => [o.creditTypeId, o.catalogueTypeId]));
  // What links each certificate's credit to the catalogue, in the order it is trusted.
  const links = certified.map(({ enrollmentId, credit }) =>
    [
      credit.catalogueTypeId,
      byClaim.get(claimKey(enrollmentId, credit.creditTypeId, credit.name)),
      credit.creditTypeId ? byType.get(credit.creditTypeId) : undefined,
    ].flatMap((id) => id ?? []),
  );
  const current = await currentCatalogueTypes(db, links.flat());
  const names = await catalogueTypeNames(db, [...current.values()]);
  // The first link to a type the catalogue still has, as merges left it; a type since
  // removed (or merged before merges were kept) is passed over for the next link.
  return creditTotals(
    certified.map(({ credit }, i) => ({
      ...credit,
      catalogueTypeId: links[i]!.map((id) => current.get(id)!).find((id) => names.has(id)) ?? null,
    })),
    names,
  );
}
