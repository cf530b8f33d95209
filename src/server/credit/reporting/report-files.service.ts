import {
  REGULATOR_NAMES,
  type RefusedRow,
  type Regulator,
  type ReportFile,
  type ReportGenerateBody,
} from "../../../contract";
import type { Actor } from "../../platform";
import { ceBrokerRosterFor } from "./ce-broker-file";
import type { RegulatorConnections } from "./regulator-connections.service";
import { type EvaluatedClaim, FORMATS, type ReportClaims } from "./report-claims";
import { type ReportFileStore, toFile } from "./report-file-store";
import { rowFingerprint } from "./report-format";
import {
  alreadySubmitted,
  nothingToReport,
  reportFileNotFound,
  submittedByService,
} from "./reporting.errors";
import { createReportingRepository } from "./reporting.repository";
import type { ReportingServiceDeps } from "./reporting.service";

/** A row as a file writes it, and the claim it is of. */
interface WrittenRow {
  attestationId: string;
  position: number;
  fingerprint: string;
  action: "add" | "delete";
  row: string[];
}

/**
 * The report files: each generated in the regulator's upload format and kept byte for byte,
 * with the rows the format refused; downloaded again exactly as made; marked submitted once
 * uploaded. A learner file holds the claims not reported as they stand (the PARS activity
 * file is pars-activity.service.ts's).
 */
export function createReportFilesService(
  deps: ReportingServiceDeps,
  reportClaims: ReportClaims,
  fileStore: ReportFileStore,
  connections: RegulatorConnections,
) {
  const { db } = deps;
  const repo = createReportingRepository(db);
  const { store, reportingCourse } = fileStore;

  /**
   * The rows a PARS file withdraws before it adds: a changed claim's row as last reported
   * (deleted, then added anew), and the row of a reported claim no longer valid (its
   * certificate revoked or its enrollment gone). A row written before rows were kept cannot
   * be named, and is left to be deleted in PARS by hand.
   */
  async function withdrawals(regulator: Regulator, courseId: string, adding: EvaluatedClaim[]) {
    const changed = new Set(adding.filter((e) => e.status === "changed").map((e) => e.claim.key));
    const current = new Set(
      (await reportClaims.evaluate(regulator, { courseId })).map((e) => e.claim.key),
    );
    const withdrawn: WrittenRow[] = [];
    for (const last of await repo.lastWrittenRows(regulator, courseId)) {
      const key = `${last.attestationId}:${last.position}`;
      if (last.action !== "add" || !last.row) continue;
      if (!changed.has(key) && current.has(key)) continue;
      withdrawn.push({
        attestationId: last.attestationId,
        position: last.position,
        fingerprint: rowFingerprint(FORMATS[regulator], null, last.row),
        action: "delete",
        row: last.row,
      });
    }
    return withdrawn;
  }

  return {
    /**
     * One file of the course's claims completed in the range that are not reported as they
     * stand: new ones, and those changed since the file that reported them. Claims the
     * format refuses are listed apart with the reason, and stay waiting.
     */
    async generate(
      regulator: Regulator,
      body: ReportGenerateBody,
      actor: Actor,
    ): Promise<ReportFile> {
      const { course } = await reportingCourse(body.courseId, regulator);
      const format = FORMATS[regulator];
      if (!format.write) throw submittedByService();
      const pending = (
        await reportClaims.evaluate(regulator, {
          courseId: body.courseId,
          from: body.from,
          to: body.to,
        })
      ).filter((e) => e.status !== "reported");
      const rows: EvaluatedClaim[] = [];
      const refused: RefusedRow[] = [];
      let fileKey: string | undefined;
      for (const e of pending) {
        const refuse = (reason: string) =>
          refused.push({
            claimKey: e.claim.key,
            learnerName: e.claim.learnerName,
            completedOn: e.claim.completedAt.toISOString().slice(0, 10),
            reason,
          });
        if (e.problem) {
          refuse(e.problem);
          continue;
        }
        const key = format.fileKey?.(e.claim);
        fileKey ??= key;
        if (key !== fileKey) {
          refuse(`Another provider than this file's (${fileKey}): report it in a file of its own.`);
          continue;
        }
        rows.push(e);
      }
      const written = format.withdraws ? await withdrawals(regulator, body.courseId, rows) : [];
      for (const e of rows) {
        written.push({
          attestationId: e.claim.attestationId,
          position: e.claim.position,
          fingerprint: e.fingerprint!,
          action: "add",
          row: format.values(e.claim),
        });
      }
      if (!written.length) throw nothingToReport(refused.length);
      return store({
        regulator,
        kind: "learners",
        course,
        from: body.from,
        to: body.to,
        format,
        bytes: await format.write(written.map((w) => ({ action: w.action, values: w.row }))),
        rowCount: written.length,
        refused,
        claims: written,
        actor,
      });
    },

    async files(regulator: Regulator, courseId?: string): Promise<ReportFile[]> {
      return (await repo.files(regulator, courseId)).map(toFile);
    },

    /**
     * A file exactly as it was generated; a CE Broker roster with the parent provider and
     * upload key of the settings written in.
     */
    async download(regulator: Regulator, id: string) {
      const row = await repo.file(regulator, id);
      if (!row) throw reportFileNotFound();
      // The database may answer a Uint8Array; the roster is read as text below.
      let bytes: Buffer = Buffer.from(row.bytes);
      if (regulator === "ce_broker") {
        const connection = await connections.openConnection("ce_broker", [
          "parentProviderId",
          "uploadKey",
        ]);
        bytes = ceBrokerRosterFor(bytes, connection.values.parentProviderId!, connection.secret!);
      }
      return { fileName: row.fileName, contentType: row.contentType, bytes };
    },

    /**
     * Records that the file was uploaded to the regulator: its claims are reported from now.
     * Marked again by whoever marked it, it answers the first marking; by anyone else, it is
     * refused.
     */
    async submit(regulator: Regulator, id: string, actor: Actor): Promise<ReportFile> {
      const row = await db.transaction(async (tx) => {
        const txRepo = createReportingRepository(tx);
        const locked = await txRepo.lockFile(regulator, id);
        if (!locked) throw reportFileNotFound();
        // The same administrator's repeat (a double click) answers as the first did; the
        // file's submission is never rewritten.
        if (locked.submittedAt && locked.submittedBy === (actor?.id ?? null)) {
          return (await txRepo.file(regulator, id))!;
        }
        if (locked.submittedAt) throw alreadySubmitted();
        const submitted = (await txRepo.markSubmitted(id, new Date(), actor?.id ?? null))!;
        await deps.audit.append(tx, {
          type: "report_file.submitted",
          actor,
          courseId: submitted.courseId,
          details: {
            courseTitle: submitted.courseTitle,
            regulator,
            regulatorName: REGULATOR_NAMES[regulator],
            kind: submitted.kind,
            fileId: submitted.id,
            fileName: submitted.fileName,
            rowCount: submitted.rowCount,
          },
        });
        return submitted;
      });
      return toFile(row);
    },
  };
}
