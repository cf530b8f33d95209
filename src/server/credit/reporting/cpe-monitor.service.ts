import type { CpeMonitorSubmitResult, RefusedRow, ReportGenerateBody } from "../../../contract";
import type { Actor } from "../../platform";
import { CPE_MONITOR_PARAMETERS } from "./cpe-monitor-activity";
import type { RegulatorConnections } from "./regulator-connections.service";
import { type EvaluatedClaim, FORMATS, type ReportClaims } from "./report-claims";
import type { ReportFileStore } from "./report-file-store";
import { nothingToReport } from "./reporting.errors";
import { createReportingRepository } from "./reporting.repository";
import type { ReportingServiceDeps } from "./reporting.service";

/** The first wait after the service could not be reached; each later wait doubles, to a day. */
const FIRST_RETRY_MS = 5 * 60_000;
const LONGEST_RETRY_MS = 24 * 60 * 60_000;
/** How long a call to the service may take before it counts as unreachable. */
const CALL_TIMEOUT_MS = 15_000;
/** How long an instance holds a claim it sends: well past the call's own timeout. */
const SENDING_HOLD_MS = 4 * CALL_TIMEOUT_MS;

type Answer =
  | { status: "accepted"; message: string }
  | { status: "refused"; message: string }
  | { status: "unreachable"; message: string };

/**
 * CPE Monitor's activity service (`SubmitCPEActivityJSON`): each completion sent with the
 * parameters the public integrations send (provider number, e-Profile ID, MMDD birth date,
 * UAN, date of participation, action I, user name, password) and answered in JSON, `status`
 * "Accepted" or a refusal with its `error_message`. Anything else (no answer, a server error,
 * an answer that is not JSON) means the service could not be reached.
 */
async function callService(url: string, params: Record<string, string>): Promise<Answer> {
  const target = `${url.replace(/\/+$/, "")}/SubmitCPEActivityJSON?${new URLSearchParams(params)}`;
  try {
    const response = await fetch(target, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    if (response.status >= 500) {
      return { status: "unreachable", message: `CPE Monitor answered ${response.status}.` };
    }
    const body = (await response.json()) as { status?: unknown; error_message?: unknown };
    if (body.status === "Accepted") return { status: "accepted", message: "" };
    const message = typeof body.error_message === "string" ? body.error_message : "";
    return {
      status: "refused",
      message: message || `CPE Monitor answered ${String(body.status ?? response.status)}.`,
    };
  } catch (err) {
    return {
      status: "unreachable",
      message: `CPE Monitor could not be reached: ${err instanceof Error ? err.message : String(err)}.`,
    };
  }
}

/**
 * Sends completions to CPE Monitor by its web service, one claim at a time, and keeps the
 * service's answer per claim: accepted (the claim is reported), refused with the service's
 * message, or waiting while the service cannot be reached, to be sent again by the retry
 * sweep with a growing wait. A claim is sent again when its values change.
 */
export function createCpeMonitorService(
  deps: ReportingServiceDeps,
  reportClaims: ReportClaims,
  fileStore: ReportFileStore,
  connections: RegulatorConnections,
) {
  const repo = createReportingRepository(deps.db);
  const clock = deps.now ?? (() => new Date());

  async function send(e: EvaluatedClaim, attempts: number, actor: Actor) {
    const connection = await connections.openConnection("cpe_monitor", [
      "providerNumber",
      "username",
      "password",
      "serviceUrl",
    ]);
    const values = FORMATS.cpe_monitor.values(e.claim);
    const params: Record<string, string> = {
      provider_number: connection.values.providerNumber!,
      ...Object.fromEntries(CPE_MONITOR_PARAMETERS.map((name, i) => [name, values[i] ?? ""])),
      username: connection.values.username!,
      password: connection.secret ?? "",
    };
    const answer = await callService(connection.values.serviceUrl!, params);
    const now = clock();
    const tries = attempts + 1;
    const waiting = answer.status === "unreachable";
    await repo.saveSubmission({
      attestationId: e.claim.attestationId,
      position: e.claim.position,
      courseId: e.claim.courseId,
      fingerprint: e.fingerprint!,
      status: waiting ? "waiting" : answer.status,
      message: answer.message,
      attempts: tries,
      nextAttemptAt: waiting
        ? new Date(now.getTime() + Math.min(FIRST_RETRY_MS * 2 ** (tries - 1), LONGEST_RETRY_MS))
        : null,
      answeredAt: waiting ? null : now,
      submittedAt: now,
      submittedBy: actor?.id ?? null,
    });
    return waiting ? "waiting" : answer.status;
  }

  type Submission = NonNullable<Awaited<ReturnType<typeof repo.holdForSending>>>;

  /**
   * Sends a claim once: held first, so that an administrator's submit and a retry, in this
   * instance or another, never send it twice at once; then sent only if its submission as it
   * stands once held still calls for it (`due`). The outcome, or null when not sent.
   */
  async function sendOnce(e: EvaluatedClaim, actor: Actor, due: (held: Submission) => boolean) {
    const now = clock();
    const held = await repo.holdForSending(
      {
        attestationId: e.claim.attestationId,
        position: e.claim.position,
        courseId: e.claim.courseId,
        fingerprint: e.fingerprint!,
      },
      now,
      new Date(now.getTime() + SENDING_HOLD_MS),
    );
    if (!held) return null;
    if (!due(held)) {
      await repo.releaseSending(e.claim);
      return null;
    }
    return send(e, held.fingerprint === e.fingerprint ? held.attempts : 0, actor);
  }

  return {
    /**
     * Sends the course's claims completed in the range that CPE Monitor has not accepted as
     * they stand. Claims the layout refuses are listed apart and not sent.
     */
    async submitCpeMonitor(
      body: ReportGenerateBody,
      actor: Actor,
    ): Promise<CpeMonitorSubmitResult> {
      await fileStore.reportingCourse(body.courseId, "cpe_monitor");
      // Refused before anything is sent when the settings are incomplete.
      await connections.openConnection("cpe_monitor", [
        "providerNumber",
        "username",
        "password",
        "serviceUrl",
      ]);
      const pending = (await reportClaims.evaluate("cpe_monitor", body)).filter(
        (e) => e.status !== "reported",
      );
      const result: CpeMonitorSubmitResult = { accepted: 0, refused: 0, waiting: 0, notSent: [] };
      const notSent: RefusedRow[] = result.notSent;
      for (const e of pending) {
        if (e.problem) {
          notSent.push({
            claimKey: e.claim.key,
            learnerName: e.claim.learnerName,
            completedOn: e.claim.completedAt.toISOString().slice(0, 10),
            reason: e.problem,
          });
          continue;
        }
        // A refusal of these very values stands until they change, and an acceptance is final.
        const outcome = await sendOnce(
          e,
          actor,
          (held) => held.fingerprint !== e.fingerprint || held.status === "waiting",
        );
        if (outcome) result[outcome] += 1;
      }
      if (!result.accepted && !result.refused && !result.waiting) {
        throw nothingToReport(notSent.length);
      }
      await deps.db.transaction(async (tx) => {
        await deps.audit.append(tx, {
          type: "cpe_monitor.submitted",
          actor,
          courseId: body.courseId,
          details: {
            ...body,
            accepted: result.accepted,
            refused: result.refused,
            waiting: result.waiting,
          },
        });
      });
      return result;
    },

    /**
     * Sends again each claim waiting for the service whose next attempt is due; the claim is
     * read as it stands now (a claim no longer valid, or now refused by the layout, is dropped).
     */
    async retryCpeMonitor(): Promise<number> {
      const due = await repo.dueSubmissions(clock());
      if (!due.length) return 0;
      const evaluated = new Map(
        (await reportClaims.evaluate("cpe_monitor", {})).map((e) => [e.claim.key, e]),
      );
      let sent = 0;
      for (const s of due) {
        const e = evaluated.get(`${s.attestationId}:${s.position}`);
        if (!e || e.problem || e.status === "reported") continue;
        // Another instance's sweep may have sent it meanwhile: then it is no longer due.
        const now = clock();
        const outcome = await sendOnce(
          e,
          null,
          (held) => held.status === "waiting" && !!held.nextAttemptAt && held.nextAttemptAt <= now,
        );
        if (outcome) sent += 1;
      }
      return sent;
    },
  };
}
