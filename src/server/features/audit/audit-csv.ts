import { csvRow } from "../../lib/csv";
import type { AuditEventRow } from "./audit.table";
import { canonicalJson } from "./audit-hash";

const AUDIT_CSV_HEADER = [
  "seq",
  "at",
  "type",
  "actor_id",
  "actor_role",
  "learner_id",
  "course_id",
  "module_id",
  "details",
  "prev_hash",
  "hash",
];

const line = csvRow;

/**
 * The export, streamed row by row. It carries prev_hash and hash, and details in the
 * canonical form that was hashed, so an auditor can recompute each link from the file.
 */
export async function* auditCsvLines(events: AsyncIterable<AuditEventRow>): AsyncGenerator<string> {
  yield line(AUDIT_CSV_HEADER);
  for await (const e of events) {
    yield line([
      e.seq,
      e.at.toISOString(),
      e.type,
      e.actorId,
      e.actorRole,
      e.learnerId,
      e.courseId,
      e.moduleId,
      canonicalJson(e.details ?? {}),
      e.prevHash,
      e.hash,
    ]);
  }
}
