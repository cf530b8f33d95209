import { createHash } from "node:crypto";
import type { AuditDetails } from "../../../contract";

/** The `prev_hash` of the first row of the chain. */
export const GENESIS_HASH = "0".repeat(64);

/** The fields of an audit row that its hash covers (everything but the hash itself). */
export interface ChainedFields {
  seq: number;
  at: Date;
  actorId: string | null;
  actorRole: string | null;
  type: string;
  learnerId: string | null;
  courseId: string | null;
  moduleId: string | null;
  details: AuditDetails;
  prevHash: string;
}

/**
 * JSON with object keys sorted at every level: jsonb does not keep key order, so the bytes
 * hashed at append time and at verification time must not depend on it.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** sha256 (hex) over the canonical serialization of the row, which includes prev_hash. */
export function auditHash(row: ChainedFields): string {
  const canonical = canonicalJson({
    seq: row.seq,
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorRole: row.actorRole,
    type: row.type,
    learnerId: row.learnerId,
    courseId: row.courseId,
    moduleId: row.moduleId,
    details: row.details,
    prevHash: row.prevHash,
  });
  return createHash("sha256").update(canonical).digest("hex");
}
