import { eq, inArray } from "drizzle-orm";
import { type CreditTotal, creditTotals, type StoredClaimedCredit } from "../../../contract";
import { catalogueTypeNames, creditTypeCourses } from "../../catalogue";
import type { Executor } from "../../db/client";
import { attestationRecords, claimedCredits } from "../attestations/attestations.read-model";

interface CertifiedCredit {
  enrollmentId: string | null;
  credit: Pick<StoredClaimedCredit, "creditTypeId" | "catalogueTypeId" | "name" | "amount">;
}

/**
 * A transcript's totals, one per catalogue type. A certificate keeps the words it printed,
 * so its credit is placed by what links it to the catalogue now: the learner's claim (which
 * a merge of two catalogue types moves), else the course's type, else the catalogue type it
 * was issued with; credit older than the catalogue adds up by its name.
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
  const linked = certified.map(({ enrollmentId, credit }) => ({
    ...credit,
    catalogueTypeId:
      byClaim.get(claimKey(enrollmentId, credit.creditTypeId, credit.name)) ??
      (credit.creditTypeId ? byType.get(credit.creditTypeId) : undefined) ??
      credit.catalogueTypeId ??
      null,
  }));
  const names = await catalogueTypeNames(
    db,
    linked.flatMap((c) => c.catalogueTypeId ?? []),
  );
  // A catalogue type since removed is no longer a type: its credit adds up by name.
  return creditTotals(
    linked.map((c) => ({
      ...c,
      catalogueTypeId: c.catalogueTypeId && names.has(c.catalogueTypeId) ? c.catalogueTypeId : null,
    })),
    names,
  );
}
