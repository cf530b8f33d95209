import {
  type AuditChange,
  type CourseReporting,
  type CourseReportingBody,
  DEFAULT_DEADLINE_DAYS,
  type MyRegulatorIds,
  missingActivityIds,
  REGULATOR_NAMES,
  REGULATORS,
  type RefusedRow,
  type Regulator,
  type RegulatorActivity,
  type RegulatorIdsBody,
  type RegulatorOverview,
  type ReportClaim,
  type ReportFile,
  type ReportGenerateBody,
} from "../../../contract";
import type { Database } from "../../db/client";
import { fileNamePart } from "../../lib/csv";
import { loadActivity } from "../activity/activity.read-model";
import type { Actor, AuditService } from "../audit/audit.service";
import { creditTypesOfCourse } from "../courses/course-credit.read-model";
import type { CoursesService, Viewer } from "../courses/courses.service";
import { ceBrokerFile } from "./ce-broker-file";
import { cpeMonitorFile } from "./cpe-monitor-file";
import { parsFile } from "./pars-file";
import { type ReportableClaim, type ReportFormat, rowFingerprint } from "./report-format";
import {
  activityIdMissing,
  alreadySubmitted,
  attestationRequired,
  courseNotReporting,
  nothingToReport,
  reportFileNotFound,
  reportingCourseNotFound,
  reportingCreditTypeNotFound,
} from "./reporting.errors";
import { learnerRegulatorIdsOf, regulatorsOfTypes } from "./reporting.read-model";
import { type ClaimFilter, createReportingRepository } from "./reporting.repository";
import type { ReportFileRow } from "./reporting.table";

/** Each regulator's upload format, one file each (pars-file.ts, ce-broker-file.ts, cpe-monitor-file.ts). */
const FORMATS: Record<Regulator, ReportFormat> = {
  pars: parsFile,
  ce_broker: ceBrokerFile,
  cpe_monitor: cpeMonitorFile,
};

const FILE_NAME_PREFIX: Record<Regulator, string> = {
  pars: "pars-learners",
  ce_broker: "ce-broker-roster",
  cpe_monitor: "cpe-monitor-batch",
};

const DAY_MS = 86_400_000;

export interface ReportingServiceDeps {
  db: Database;
  /** The courses feature: a course's row, and whether a learner may see it. */
  courses: Pick<CoursesService, "findRow" | "get">;
  audit: Pick<AuditService, "append">;
  /** The clock of deadlines (days waiting since completion); tests pass one they can move. */
  now?: () => Date;
}

/** A completed claim as its regulator's format sees it, and where it stands. */
interface EvaluatedClaim {
  claim: ReportableClaim;
  problem: string | null;
  fingerprint: string | null;
  status: ReportClaim["status"];
  held: { fileId: string; fileName: string; submittedAt: Date | null } | null;
}

const toFile = (row: Omit<ReportFileRow, "bytes">): ReportFile => ({
  id: row.id,
  regulator: row.regulator as Regulator,
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
 * Regulator reporting: what each course's credit types report and to whom, the identifiers
 * learners give, the report files in each regulator's upload format, and which claims are
 * reported. A claim is reported while a submitted file holds its row as it stands now; the
 * next file takes only what is new or changed since.
 */
export function createReportingService(deps: ReportingServiceDeps) {
  const { db } = deps;
  const repo = createReportingRepository(db);
  const clock = deps.now ?? (() => new Date());

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
      repo.submittedClaims(regulator),
    ]);
    const heldBy = new Map<string, typeof submitted>();
    for (const s of submitted) {
      const key = `${s.attestationId}:${s.position}`;
      heldBy.set(key, [...(heldBy.get(key) ?? []), s]);
    }
    return rows.map((row) => {
      const key = `${row.attestationId}:${row.position}`;
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
        ids: row.regulatorIds?.regulators.includes(regulator) ? row.regulatorIds.ids : null,
        activity: { regulator, activityId: row.activityId, providerId: row.providerId },
      };
      const problem = format.refusal(claim);
      const fingerprint = problem ? null : rowFingerprint(format, claim);
      const held = heldBy.get(key) ?? [];
      const same = fingerprint ? held.find((h) => h.fingerprint === fingerprint) : undefined;
      // A claim the format refuses now keeps the status of the file that last held it.
      const reported = same ?? (!fingerprint ? held[0] : undefined);
      return {
        claim,
        problem,
        fingerprint,
        status: reported ? "reported" : held.length ? "changed" : "not_reported",
        held: (reported ?? held[0]) || null,
      };
    });
  }

  function claimOf(e: EvaluatedClaim, deadlineDays: number, now: Date): ReportClaim {
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
    };
  }

  /** The course's credit types with the regulators each reports to. */
  async function reportingOf(courseId: string): Promise<CourseReporting> {
    const types = await creditTypesOfCourse(db, courseId);
    const regulators = await regulatorsOfTypes(
      db,
      types.map((t) => t.id),
    );
    return {
      courseId,
      types: types.map((t) => ({
        creditTypeId: t.id,
        name: t.name,
        amount: t.amount,
        regulators: regulators.get(t.id) ?? [],
      })),
    };
  }

  async function claimsOf(regulator: Regulator, filter: ClaimFilter): Promise<ReportClaim[]> {
    const [evaluated, deadlineDays] = await Promise.all([
      evaluate(regulator, filter),
      deadlineOf(regulator),
    ]);
    const now = clock();
    return evaluated.map((e) => claimOf(e, deadlineDays, now));
  }

  return {
    /** The course's credit types and whom each reports to (administrators). */
    async courseReporting(courseId: string): Promise<CourseReporting> {
      if (!(await deps.courses.findRow(courseId))) throw reportingCourseNotFound();
      return reportingOf(courseId);
    },

    /**
     * Sets the regulators of the credit types named (types left out keep theirs), records
     * what changed, and answers the course's whole reporting.
     */
    async saveCourseReporting(
      courseId: string,
      body: CourseReportingBody,
      actor: Actor,
    ): Promise<CourseReporting> {
      const course = await deps.courses.findRow(courseId);
      if (!course) throw reportingCourseNotFound();
      await db.transaction(async (tx) => {
        const txRepo = createReportingRepository(tx);
        await txRepo.lockCourse(courseId);
        const ids = body.types.map((t) => t.creditTypeId);
        const known = new Set((await txRepo.typesOfCourse(courseId, ids)).map((t) => t.id));
        if (ids.some((id) => !known.has(id))) throw reportingCreditTypeNotFound();
        const types = await creditTypesOfCourse(tx, courseId);
        const before = await regulatorsOfTypes(tx, ids);
        const changes: AuditChange[] = [];
        for (const t of body.types) {
          const after: RegulatorActivity[] = t.regulators.map((r) => ({
            regulator: r.regulator,
            activityId: r.activityId,
            providerId: r.providerId,
          }));
          await txRepo.replaceRegulators(t.creditTypeId, after);
          const name = types.find((type) => type.id === t.creditTypeId)?.name ?? t.creditTypeId;
          const shown = (r: RegulatorActivity | undefined) =>
            r
              ? [r.activityId, r.providerId].filter(Boolean).join(" / ") || "(no identifier)"
              : null;
          for (const regulator of REGULATORS) {
            const was = shown(before.get(t.creditTypeId)?.find((r) => r.regulator === regulator));
            const now = shown(after.find((r) => r.regulator === regulator));
            if (was !== now) {
              changes.push({ field: `${name}: ${REGULATOR_NAMES[regulator]}`, from: was, to: now });
            }
          }
        }
        if (changes.length) {
          await deps.audit.append(tx, {
            type: "reporting.settings_updated",
            actor,
            courseId,
            details: { courseTitle: course.title, changes },
          });
        }
      });
      return reportingOf(courseId);
    },

    /**
     * Refuses publishing a course whose credit types report to a regulator while an
     * identifier of the activity is missing, or while it asks for no attestation (where
     * learners claim their credit and give their identifiers). A course reporting nowhere
     * is not concerned.
     */
    async assertPublishable(courseId: string): Promise<void> {
      const reporting = await reportingOf(courseId);
      const reported = reporting.types.filter((t) => t.regulators.length);
      if (!reported.length) return;
      for (const t of reported) {
        for (const r of t.regulators) {
          const missing = missingActivityIds(r);
          if (missing.length) throw activityIdMissing(t.name, r.regulator, missing);
        }
      }
      if (!(await loadActivity(db, courseId))?.attestationRequired) throw attestationRequired();
    },

    /** The learner's identifiers and, for a course they can open, the regulators it reports to. */
    async myIds(viewer: Viewer, courseId?: string): Promise<MyRegulatorIds> {
      const ids = await learnerRegulatorIdsOf(db, viewer.id);
      if (!courseId) return { ids, course: null };
      await deps.courses.get(courseId, viewer);
      const reporting = await reportingOf(courseId);
      const course = REGULATORS.flatMap((regulator) => {
        const creditTypeIds = reporting.types
          .filter((t) => t.regulators.some((r) => r.regulator === regulator))
          .map((t) => t.creditTypeId);
        return creditTypeIds.length ? [{ regulator, creditTypeIds }] : [];
      });
      return { ids, course };
    },

    async saveMyIds(userId: string, body: RegulatorIdsBody): Promise<MyRegulatorIds> {
      await repo.saveLearnerIds(userId, body);
      return { ids: await learnerRegulatorIdsOf(db, userId), course: null };
    },

    /** Each regulator, its deadline, and the claims waiting for it. */
    async overview(): Promise<RegulatorOverview[]> {
      return Promise.all(
        REGULATORS.map(async (regulator) => {
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
        }),
      );
    },

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
      const overview = await this.overview();
      return overview.find((o) => o.regulator === regulator)!;
    },

    /** Every completed claim reporting to the regulator (of one course), and where it stands. */
    claims: (regulator: Regulator, courseId?: string) => claimsOf(regulator, { courseId }),

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
      const course = await deps.courses.findRow(body.courseId);
      if (!course) throw reportingCourseNotFound();
      const reporting = await reportingOf(body.courseId);
      if (!reporting.types.some((t) => t.regulators.some((r) => r.regulator === regulator))) {
        throw courseNotReporting(regulator);
      }
      const format = FORMATS[regulator];
      const pending = (
        await evaluate(regulator, { courseId: body.courseId, from: body.from, to: body.to })
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
      // When it happened, as the audit trail dates it; the clock moves only deadlines.
      const createdAt = new Date();
      const fileName = `${FILE_NAME_PREFIX[regulator]}-${fileNamePart(course.title)}-${body.from}-to-${body.to}-${stamp(createdAt)}.${format.extension}`;
      const row = await db.transaction(async (tx) => {
        const inserted = await createReportingRepository(tx).insertFile(
          {
            regulator,
            courseId: course.id,
            courseTitle: course.title,
            fromDate: body.from,
            toDate: body.to,
            fileName,
            contentType: format.contentType,
            bytes: format.write(rows.map((r) => r.claim)),
            rowCount: rows.length,
            refused,
            createdAt,
            createdBy: actor?.id ?? null,
          },
          rows.map((r) => ({
            attestationId: r.claim.attestationId,
            position: r.claim.position,
            fingerprint: r.fingerprint!,
          })),
        );
        await deps.audit.append(tx, {
          type: "report_file.generated",
          actor,
          courseId: course.id,
          details: {
            courseTitle: course.title,
            regulator,
            regulatorName: REGULATOR_NAMES[regulator],
            fileId: inserted.id,
            fileName,
            from: body.from,
            to: body.to,
            rowCount: rows.length,
            refusedCount: refused.length,
          },
        });
        return inserted;
      });
      return toFile(row);
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

    /** Records that the file was uploaded to the regulator: its claims are reported from now. */
    async submit(regulator: Regulator, id: string, actor: Actor): Promise<ReportFile> {
      const row = await db.transaction(async (tx) => {
        const txRepo = createReportingRepository(tx);
        const locked = await txRepo.lockFile(regulator, id);
        if (!locked) throw reportFileNotFound();
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
            fileId: submitted.id,
            fileName: submitted.fileName,
            rowCount: submitted.rowCount,
          },
        });
        return submitted;
      });
      return toFile(row);
    },

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

    digestTaken: (week: string) => repo.digestTaken(week),
    /** Takes this week's digest (once across instances); false when it was taken already. */
    claimDigest: (week: string) => repo.claimDigest(week, clock()),
    markDigestSent: (week: string) => repo.markDigestSent(week, clock()),
  };
}

export type ReportingService = ReturnType<typeof createReportingService>;
