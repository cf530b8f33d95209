import {
  REGULATOR_NAMES,
  REGULATORS,
  type Regulator,
  type RegulatorOverview,
} from "../../../contract";
import type { Actor } from "../../platform";
import type { ReportClaims } from "./report-claims";
import { createReportingRepository, type DigestRetry } from "./reporting.repository";
import type { ReportingServiceDeps } from "./reporting.service";

/**
 * Each regulator's deadline and the claims waiting for it: the Reporting page's overview and
 * claims list, and the administrators' weekly digest of overdue claims.
 */
export function createRegulatorDeadlinesService(
  deps: ReportingServiceDeps,
  reportClaims: ReportClaims,
) {
  const { db } = deps;
  const repo = createReportingRepository(db);
  const clock = deps.now ?? (() => new Date());
  const { deadlineOf, claimsOf } = reportClaims;

  /** A regulator, its deadline, and the claims waiting for it. */
  async function overviewOf(regulator: Regulator): Promise<RegulatorOverview> {
    const [claims, courses, deadlineDays] = await Promise.all([
      claimsOf(regulator, {}),
      repo.coursesReportingTo(regulator),
      deadlineOf(regulator),
    ]);
    const waiting = claims.filter((c) => c.status !== "reported");
    return {
      regulator,
      name: REGULATOR_NAMES[regulator],
      deadlineDays,
      waiting: waiting.length,
      overdue: waiting.filter((c) => c.overdue).length,
      courses,
    };
  }

  return {
    /** Each regulator, its deadline, and the claims waiting for it. */
    overview: () => Promise.all(REGULATORS.map(overviewOf)),

    async saveDeadline(regulator: Regulator, deadlineDays: number, actor: Actor) {
      const before = await deadlineOf(regulator);
      await db.transaction(async (tx) => {
        await createReportingRepository(tx).saveDeadline(regulator, deadlineDays);
        if (before !== deadlineDays) {
          await deps.audit.append(tx, {
            type: "regulator.deadline_updated",
            actor,
            details: {
              regulator,
              regulatorName: REGULATOR_NAMES[regulator],
              deadlineDays,
              changes: [{ field: "deadlineDays", from: before, to: deadlineDays }],
            },
          });
        }
      });
      return overviewOf(regulator);
    },

    /** Every completed claim reporting to the regulator (of one course), and where it stands. */
    claims: (regulator: Regulator, courseId?: string) => claimsOf(regulator, { courseId }),

    /** The claims waiting longer than each regulator's deadline, for the administrators' digest. */
    async overdue() {
      return Promise.all(
        REGULATORS.map(async (regulator) => ({
          regulator,
          name: REGULATOR_NAMES[regulator],
          deadlineDays: await deadlineOf(regulator),
          claims: (await claimsOf(regulator, {})).filter((c) => c.overdue),
        })),
      );
    },

    digestDue: (week: string, retry: DigestRetry) => repo.digestDue(week, retry),
    /** Takes this week's digest (one try at a time across instances); false when held or done. */
    claimDigest: (week: string, retry: DigestRetry) => repo.claimDigest(week, clock(), retry),
    digestRecipients: (week: string) => repo.digestRecipients(week),
    markDigestSentTo: (week: string, userId: string) =>
      repo.markDigestSentTo(week, userId, clock()),
    markDigestSent: (week: string) => repo.markDigestSent(week, clock()),
  };
}
