import {
  DEFAULT_DEADLINE_DAYS,
  EMPTY_ACTIVITY_DETAILS,
  type Regulator,
  type ReportClaim,
} from "../../../contract";
import { ceBrokerFile } from "./ce-broker-file";
import { cpeMonitorActivity } from "./cpe-monitor-activity";
import { parsFile } from "./pars-file";
import { type ReportableClaim, type ReportFormat, rowFingerprint } from "./report-format";
import type { ClaimFilter, createReportingRepository } from "./reporting.repository";

/**
 * Each regulator's learner layout, one file each: the PARS learner template (pars-file.ts), the
 * CE Broker roster (ce-broker-file.ts) and CPE Monitor's service parameters
 * (cpe-monitor-activity.ts).
 */
export const FORMATS: Record<Regulator, ReportFormat> = {
  pars: parsFile,
  ce_broker: ceBrokerFile,
  cpe_monitor: cpeMonitorActivity,
};

const DAY_MS = 86_400_000;

/** A completed claim as its regulator's format sees it, and where it stands. */
export interface EvaluatedClaim {
  claim: ReportableClaim;
  problem: string | null;
  fingerprint: string | null;
  status: ReportClaim["status"];
  held: { fileId: string | null; fileName: string; submittedAt: Date | null } | null;
  /** The learner's consent to this regulator's reporting, as agreed; null when none was asked. */
  consent: string | null;
}

/**
 * The completed claims of each regulator and where they stand: a claim is reported while a
 * submitted file holds its row as it stands now; waiting past the regulator's deadline, it is
 * overdue. The files, the overview and the weekly digest all read claims through this.
 */
export function createReportClaims(deps: {
  repo: ReturnType<typeof createReportingRepository>;
  clock: () => Date;
}) {
  const { repo, clock } = deps;

  async function deadlineOf(regulator: Regulator): Promise<number> {
    const rows = await repo.deadlines();
    return (
      rows.find((r) => r.regulator === regulator)?.deadlineDays ?? DEFAULT_DEADLINE_DAYS[regulator]
    );
  }

  /** Each completed claim reporting to the regulator, checked by its format, with its status. */
  async function evaluate(regulator: Regulator, filter: ClaimFilter): Promise<EvaluatedClaim[]> {
    const format = FORMATS[regulator];
    const [rows, submitted] = await Promise.all([
      repo.claims(regulator, filter),
      // CPE Monitor's are the service's acceptances; the others', submitted files' rows.
      regulator === "cpe_monitor" ? repo.acceptedSubmissions() : repo.submittedClaims(regulator),
    ]);
    const heldBy = new Map<string, (typeof submitted)[number][]>();
    for (const s of submitted) {
      const key = `${s.attestationId}:${s.position}`;
      heldBy.set(key, [...(heldBy.get(key) ?? []), s]);
    }
    return rows.map((row) => {
      const key = `${row.attestationId}:${row.position}`;
      const asked = row.regulatorIds?.regulators.includes(regulator) ? row.regulatorIds : null;
      const claim: ReportableClaim = {
        key,
        attestationId: row.attestationId,
        position: row.position,
        learnerName: row.learnerName,
        courseId: row.courseId,
        courseTitle: row.courseTitle,
        creditTypeId: row.creditTypeId,
        creditName: row.creditName,
        amount: row.amount,
        maxAmount: row.maxAmount,
        completedAt: row.completedAt,
        ids: asked?.ids ?? null,
        activity: {
          regulator,
          activityId: row.activityId,
          providerId: row.providerId,
          details: { ...EMPTY_ACTIVITY_DETAILS, ...row.details },
        },
      };
      const problem = format.refusal(claim);
      const fingerprint = problem ? null : rowFingerprint(format, claim);
      // The regulator holds what the latest submitted row of the claim wrote: reported only
      // while that row adds the claim as it stands (an earlier add of the same values that a
      // later file deleted or replaced no longer counts).
      const history = heldBy.get(key) ?? [];
      const held = history.filter((h) => h.action === "add");
      const latest = history[0];
      const reported =
        latest?.action === "add" &&
        // A claim the format refuses now keeps the status of the file that last held it.
        (!fingerprint || latest.fingerprint === fingerprint)
          ? latest
          : undefined;
      return {
        claim,
        problem,
        fingerprint,
        status: reported ? "reported" : held.length ? "changed" : "not_reported",
        held: (reported ?? held[0]) || null,
        consent: asked?.consent ?? null,
      };
    });
  }

  function claimOf(
    e: EvaluatedClaim,
    deadlineDays: number,
    now: Date,
  ): Omit<ReportClaim, "submission"> {
    const reported = e.status === "reported";
    const waitingDays = reported
      ? null
      : Math.max(0, Math.floor((now.getTime() - e.claim.completedAt.getTime()) / DAY_MS));
    return {
      key: e.claim.key,
      learnerName: e.claim.learnerName,
      courseId: e.claim.courseId,
      courseTitle: e.claim.courseTitle,
      creditName: e.claim.creditName,
      amount: e.claim.amount,
      completedOn: e.claim.completedAt.toISOString().slice(0, 10),
      status: e.status,
      reportedOn: e.held?.submittedAt?.toISOString() ?? null,
      fileId: e.held?.fileId ?? null,
      fileName: e.held?.fileName ?? null,
      waitingDays,
      overdue: waitingDays !== null && waitingDays > deadlineDays,
      problem: e.problem,
      consent: e.consent,
    };
  }

  /**
   * Every completed claim reporting to the regulator (of one course), and where it stands;
   * for CPE Monitor, with the service's answer to it.
   */
  async function claimsOf(regulator: Regulator, filter: ClaimFilter): Promise<ReportClaim[]> {
    const [evaluated, deadlineDays, submissions] = await Promise.all([
      evaluate(regulator, filter),
      deadlineOf(regulator),
      regulator === "cpe_monitor" ? repo.submissions() : [],
    ]);
    const byKey = new Map(submissions.map((s) => [`${s.attestationId}:${s.position}`, s]));
    const now = clock();
    return evaluated.map((e) => {
      const s = byKey.get(e.claim.key);
      return {
        ...claimOf(e, deadlineDays, now),
        submission: s
          ? {
              status: s.status as "accepted" | "refused" | "waiting",
              message: s.message,
              attempts: s.attempts,
              nextAttemptAt: s.nextAttemptAt?.toISOString() ?? null,
              answeredAt: s.answeredAt?.toISOString() ?? null,
            }
          : null,
      };
    });
  }

  return { deadlineOf, evaluate, claimsOf };
}

export type ReportClaims = ReturnType<typeof createReportClaims>;
