import type { AuditDetails, AuditEventType } from "../../../contract";
import type { Executor } from "../../db/client";

/**
 * The audit trail as sign-on writes to it. The trail belongs to the platform context, which
 * comes after people, so app.ts hands its service in and this feature names only what it uses.
 */
export interface AuditTrail {
  append(
    tx: Executor,
    event: {
      type: AuditEventType;
      actor: { id: string; role: "admin" | "learner" } | null;
      learnerId?: string | null;
      details?: AuditDetails;
    },
  ): Promise<unknown>;
}
