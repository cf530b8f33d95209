import {
  REGULATOR_NAMES,
  type RefusedRow,
  type Regulator,
  type ReportFile,
  type ReportFileKind,
} from "../../../contract";
import { fileNamePart } from "../../lib/csv";
import type { Actor } from "../../platform";
import { courseNotReporting, reportingCourseNotFound } from "./reporting.errors";
import { courseReportingOf } from "./reporting.read-model";
import { createReportingRepository, type FileClaim } from "./reporting.repository";
import type { ReportingServiceDeps } from "./reporting.service";
import type { ReportFileRow } from "./reporting.table";

/** A stored file as the API answers it (never its bytes). */
export const toFile = (row: Omit<ReportFileRow, "bytes">): ReportFile => ({
  id: row.id,
  regulator: row.regulator as Regulator,
  kind: row.kind as ReportFileKind,
  courseId: row.courseId,
  courseTitle: row.courseTitle,
  from: row.fromDate,
  to: row.toDate,
  fileName: row.fileName,
  rowCount: row.rowCount,
  refused: row.refused,
  createdAt: row.createdAt.toISOString(),
  submittedAt: row.submittedAt?.toISOString() ?? null,
});

const stamp = (at: Date) => at.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");

/**
 * Where every generated file goes: kept byte for byte with the rows its format refused, its
 * generation recorded in the audit trail in the same transaction.
 */
export function createReportFileStore(deps: ReportingServiceDeps) {
  const { db } = deps;

  return {
    /** Stores a generated file and records its generation in the audit trail. */
    async store(input: {
      regulator: Regulator;
      kind: ReportFileKind;
      course: { id: string; title: string };
      from: string;
      to: string;
      /** The format it is written in: its name's start, extension and content type. */
      format: { fileNamePrefix: string; extension: string; contentType: string };
      bytes: Buffer;
      rowCount: number;
      refused: RefusedRow[];
      claims: FileClaim[];
      actor: Actor;
    }): Promise<ReportFile> {
      const { regulator, course, format } = input;
      // When it happened, as the audit trail dates it; the clock moves only deadlines.
      const createdAt = new Date();
      const fileName = `${format.fileNamePrefix}-${fileNamePart(course.title)}-${input.from}-to-${input.to}-${stamp(createdAt)}.${format.extension}`;
      const row = await db.transaction(async (tx) => {
        const inserted = await createReportingRepository(tx).insertFile(
          {
            regulator,
            kind: input.kind,
            courseId: course.id,
            courseTitle: course.title,
            fromDate: input.from,
            toDate: input.to,
            fileName,
            contentType: format.contentType,
            bytes: input.bytes,
            rowCount: input.rowCount,
            refused: input.refused,
            createdAt,
            createdBy: input.actor?.id ?? null,
          },
          input.claims,
        );
        await deps.audit.append(tx, {
          type: "report_file.generated",
          actor: input.actor,
          courseId: course.id,
          details: {
            courseTitle: course.title,
            regulator,
            regulatorName: REGULATOR_NAMES[regulator],
            kind: input.kind,
            fileId: inserted.id,
            fileName,
            from: input.from,
            to: input.to,
            rowCount: input.rowCount,
            refusedCount: input.refused.length,
          },
        });
        return inserted;
      });
      return toFile(row);
    },

    /** The course, which must report to the regulator. */
    async reportingCourse(courseId: string, regulator: Regulator) {
      const course = await deps.courses.findRow(courseId);
      if (!course) throw reportingCourseNotFound();
      const reporting = await courseReportingOf(db, courseId);
      if (!reporting.types.some((t) => t.regulators.some((r) => r.regulator === regulator))) {
        throw courseNotReporting(regulator);
      }
      return { course, reporting };
    },
  };
}

export type ReportFileStore = ReturnType<typeof createReportFileStore>;
