import {
  REGULATOR_NAMES,
  type RefusedRow,
  type Regulator,
  type ReportFile,
  type ReportGenerateBody,
} from "../../../contract";
import type { Actor } from "../../platform";
import { type EvaluatedClaim, FORMATS, type ReportClaims } from "./report-claims";
import { type ReportFileStore, toFile } from "./report-file-store";
import { alreadySubmitted, nothingToReport, reportFileNotFound } from "./reporting.errors";
import { createReportingRepository } from "./reporting.repository";
import type { ReportingServiceDeps } from "./reporting.service";

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
) {
  const { db } = deps;
  const repo = createReportingRepository(db);
  const { store, reportingCourse } = fileStore;

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
      if (!rows.length) throw nothingToReport(refused.length);
      return store({
        regulator,
        kind: "learners",
        course,
        from: body.from,
        to: body.to,
        format,
        bytes: format.write(rows.map((r) => r.claim)),
        rowCount: rows.length,
        refused,
        claims: rows.map((r) => ({
          attestationId: r.claim.attestationId,
          position: r.claim.position,
          fingerprint: r.fingerprint!,
        })),
        actor,
      });
    },

    async files(regulator: Regulator, courseId?: string): Promise<ReportFile[]> {
      return (await repo.files(regulator, courseId)).map(toFile);
    },

    /** A file exactly as it was generated. */
    async download(regulator: Regulator, id: string) {
      const row = await repo.file(regulator, id);
      if (!row) throw reportFileNotFound();
      return { fileName: row.fileName, contentType: row.contentType, bytes: row.bytes };
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
