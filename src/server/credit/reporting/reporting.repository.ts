import {
  and,
  asc,
  countDistinct,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
} from "drizzle-orm";
import { DEFAULT_DEADLINE_DAYS, type Regulator, type RegulatorActivity } from "../../../contract";
import { courseSummaries, creditTypeCourses } from "../../catalogue";
import type { Executor } from "../../db/client";
import { attestationRecords, claimedCredits } from "../attestations/attestations.read-model";
import { certificateRecords } from "../certificates/certificates.read-model";
import {
  cpeMonitorSubmissions,
  creditTypeRegulators,
  regulatorSettings,
  reportFileClaims,
  reportFiles,
  reportingDigestSends,
  reportingDigests,
} from "./reporting.table";

/** When a week's digest that did not reach everyone is taken again, and how often at most. */
export interface DigestRetry {
  /** A try taken before this is over (sent, or failed) and may be taken again. */
  staleBefore: Date;
  maxAttempts: number;
}

/** A taken week's digest that did not reach everyone, whose retry is due. */
const retriable = ({ staleBefore, maxAttempts }: DigestRetry) =>
  and(
    isNull(reportingDigests.sentAt),
    lt(reportingDigests.claimedAt, staleBefore),
    lt(reportingDigests.attempts, maxAttempts),
  );

/** Which completed claims to read: a course, and a range of completion days (UTC, inclusive). */
export interface ClaimFilter {
  courseId?: string;
  from?: string;
  to?: string;
}

/** The day after `YYYY-MM-DD`, as the exclusive end of a range of whole UTC days. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);

/**
 * The reporting tables, and the read-only query of reportable claims, which joins the credit
 * records of other features (attestations, certificates, credit types) as their owners expose
 * them for reports. Every function runs on the executor it is given.
 */
/** A claim as a file holds it: its row's place, fingerprint, action and cells. */
export interface FileClaim {
  attestationId: string;
  position: number;
  fingerprint: string;
  action: "add" | "delete";
  row: string[];
}

export function createReportingRepository(db: Executor) {
  return {
    async replaceRegulators(creditTypeId: string, list: RegulatorActivity[]) {
      await db
        .delete(creditTypeRegulators)
        .where(eq(creditTypeRegulators.creditTypeId, creditTypeId));
      if (list.length) {
        await db.insert(creditTypeRegulators).values(list.map((r) => ({ creditTypeId, ...r })));
      }
    },

    /** The courses whose credit types report to the regulator, by title. */
    async coursesReportingTo(regulator: Regulator) {
      return db
        .selectDistinct({ id: courseSummaries.id, title: courseSummaries.title })
        .from(creditTypeRegulators)
        .innerJoin(
          creditTypeCourses,
          eq(creditTypeCourses.creditTypeId, creditTypeRegulators.creditTypeId),
        )
        .innerJoin(courseSummaries, eq(courseSummaries.id, creditTypeCourses.courseId))
        .where(eq(creditTypeRegulators.regulator, regulator))
        .orderBy(asc(courseSummaries.title), asc(courseSummaries.id));
    },

    /**
     * The completed claims of credit types reporting to the regulator now: each claim of an
     * attestation whose enrollment holds a valid certificate, dated by the certificate's
     * completion, with the course's identifiers of the activity for this regulator.
     */
    async claims(regulator: Regulator, filter: ClaimFilter) {
      return db
        .select({
          attestationId: claimedCredits.attestationId,
          position: claimedCredits.position,
          creditTypeId: creditTypeRegulators.creditTypeId,
          creditName: claimedCredits.name,
          amount: claimedCredits.amount,
          maxAmount: claimedCredits.maxAmount,
          regulatorIds: claimedCredits.regulatorIds,
          learnerName: attestationRecords.learnerName,
          courseId: attestationRecords.courseId,
          courseTitle: attestationRecords.courseTitle,
          completedAt: certificateRecords.completedAt,
          activityId: creditTypeRegulators.activityId,
          providerId: creditTypeRegulators.providerId,
          details: creditTypeRegulators.details,
        })
        .from(claimedCredits)
        .innerJoin(
          creditTypeRegulators,
          and(
            eq(creditTypeRegulators.creditTypeId, claimedCredits.creditTypeId),
            eq(creditTypeRegulators.regulator, regulator),
          ),
        )
        .innerJoin(attestationRecords, eq(attestationRecords.id, claimedCredits.attestationId))
        .innerJoin(
          certificateRecords,
          and(
            eq(certificateRecords.enrollmentId, attestationRecords.enrollmentId),
            isNull(certificateRecords.revokedAt),
          ),
        )
        .where(
          and(
            filter.courseId ? eq(attestationRecords.courseId, filter.courseId) : undefined,
            filter.from
              ? gte(certificateRecords.completedAt, new Date(`${filter.from}T00:00:00Z`))
              : undefined,
            filter.to ? lt(certificateRecords.completedAt, dayAfter(filter.to)) : undefined,
          ),
        )
        .orderBy(
          asc(certificateRecords.completedAt),
          asc(claimedCredits.attestationId),
          asc(claimedCredits.position),
        );
    },

    /**
     * The course's completions (valid certificates) in a range of whole UTC days, and of them
     * those whose learner claimed each given credit type: the learner counts of the PARS
     * activity record.
     */
    async completionCounts(
      courseId: string,
      creditTypeIds: string[],
      range: { from: string; to: string },
    ) {
      const inRange = and(
        eq(certificateRecords.courseId, courseId),
        isNull(certificateRecords.revokedAt),
        gte(certificateRecords.completedAt, new Date(`${range.from}T00:00:00Z`)),
        lt(certificateRecords.completedAt, dayAfter(range.to)),
      );
      const [all] = await db
        .select({ total: countDistinct(certificateRecords.id) })
        .from(certificateRecords)
        .where(inRange);
      const byType = new Map<string, number>();
      if (creditTypeIds.length) {
        const rows = await db
          .select({
            creditTypeId: claimedCredits.creditTypeId,
            learners: countDistinct(certificateRecords.id),
          })
          .from(certificateRecords)
          .innerJoin(
            attestationRecords,
            eq(attestationRecords.enrollmentId, certificateRecords.enrollmentId),
          )
          .innerJoin(claimedCredits, eq(claimedCredits.attestationId, attestationRecords.id))
          .where(and(inRange, inArray(claimedCredits.creditTypeId, creditTypeIds)))
          .groupBy(claimedCredits.creditTypeId);
        for (const row of rows) if (row.creditTypeId) byType.set(row.creditTypeId, row.learners);
      }
      return { total: all?.total ?? 0, byType };
    },

    /**
     * Every row of the regulator's submitted files, added or deleted, the latest first; within
     * a file a changed claim's add, its last word, comes before its delete.
     */
    async submittedClaims(regulator: Regulator) {
      return db
        .select({
          attestationId: reportFileClaims.attestationId,
          position: reportFileClaims.position,
          action: reportFileClaims.action,
          fingerprint: reportFileClaims.fingerprint,
          fileId: reportFiles.id,
          fileName: reportFiles.fileName,
          submittedAt: reportFiles.submittedAt,
        })
        .from(reportFileClaims)
        .innerJoin(reportFiles, eq(reportFiles.id, reportFileClaims.fileId))
        .where(and(eq(reportFiles.regulator, regulator), isNotNull(reportFiles.submittedAt)))
        .orderBy(
          desc(reportFiles.submittedAt),
          desc(reportFiles.createdAt),
          asc(reportFileClaims.action),
        );
    },

    /**
     * Each claim of the course's submitted learner files as it was last written (its latest
     * submitted row, added or deleted, with the values written): what a withdrawal names.
     */
    async lastWrittenRows(regulator: Regulator, courseId: string) {
      const rows = await db
        .select({
          attestationId: reportFileClaims.attestationId,
          position: reportFileClaims.position,
          action: reportFileClaims.action,
          row: reportFileClaims.row,
        })
        .from(reportFileClaims)
        .innerJoin(reportFiles, eq(reportFiles.id, reportFileClaims.fileId))
        .where(
          and(
            eq(reportFiles.regulator, regulator),
            eq(reportFiles.courseId, courseId),
            isNotNull(reportFiles.submittedAt),
          ),
        )
        // Within a file a changed claim's delete precedes its add: the add is the last word
        // ("delete" sorts after "add", hence descending).
        .orderBy(
          asc(reportFiles.submittedAt),
          asc(reportFiles.createdAt),
          desc(reportFileClaims.action),
        );
      const last = new Map<string, (typeof rows)[number]>();
      for (const row of rows) last.set(`${row.attestationId}:${row.position}`, row);
      return [...last.values()];
    },

    /** The claims CPE Monitor's service accepted, as the files' rows are read. */
    async acceptedSubmissions() {
      return db
        .select({
          attestationId: cpeMonitorSubmissions.attestationId,
          position: cpeMonitorSubmissions.position,
          fingerprint: cpeMonitorSubmissions.fingerprint,
          fileId: sql<string | null>`null`,
          fileName: sql<string>`'CPE Monitor web service'`,
          submittedAt: cpeMonitorSubmissions.answeredAt,
          action: sql<"add">`'add'`,
        })
        .from(cpeMonitorSubmissions)
        .where(eq(cpeMonitorSubmissions.status, "accepted"))
        .orderBy(desc(cpeMonitorSubmissions.answeredAt));
    },

    async insertFile(values: typeof reportFiles.$inferInsert, claims: FileClaim[]) {
      const [row] = await db.insert(reportFiles).values(values).returning();
      if (claims.length) {
        await db.insert(reportFileClaims).values(claims.map((c) => ({ ...c, fileId: row!.id })));
      }
      return row!;
    },

    /** The regulator's files, newest first, without their bytes. */
    async files(regulator: Regulator, courseId?: string) {
      const { bytes: _, ...columns } = getTableColumns(reportFiles);
      return db
        .select(columns)
        .from(reportFiles)
        .where(
          and(
            eq(reportFiles.regulator, regulator),
            courseId ? eq(reportFiles.courseId, courseId) : undefined,
          ),
        )
        .orderBy(desc(reportFiles.createdAt), desc(reportFiles.id));
    },

    async file(regulator: Regulator, id: string) {
      const [row] = await db
        .select()
        .from(reportFiles)
        .where(and(eq(reportFiles.id, id), eq(reportFiles.regulator, regulator)));
      return row;
    },

    /** Locks the file's row, so two submissions of it cannot both record theirs. */
    async lockFile(regulator: Regulator, id: string) {
      const [row] = await db
        .select({
          id: reportFiles.id,
          submittedAt: reportFiles.submittedAt,
          submittedBy: reportFiles.submittedBy,
        })
        .from(reportFiles)
        .where(and(eq(reportFiles.id, id), eq(reportFiles.regulator, regulator)))
        .for("update");
      return row;
    },

    async markSubmitted(id: string, at: Date, by: string | null) {
      const [row] = await db
        .update(reportFiles)
        .set({ submittedAt: at, submittedBy: by })
        .where(and(eq(reportFiles.id, id), isNull(reportFiles.submittedAt)))
        .returning();
      return row;
    },

    async connection(regulator: Regulator) {
      const [row] = await db
        .select({
          connection: regulatorSettings.connection,
          sealedSecret: regulatorSettings.sealedSecret,
        })
        .from(regulatorSettings)
        .where(eq(regulatorSettings.regulator, regulator));
      return row;
    },

    async saveConnection(
      regulator: Regulator,
      connection: Record<string, string>,
      sealedSecret: string | null,
    ) {
      const [row] = await db
        .insert(regulatorSettings)
        .values({
          regulator,
          deadlineDays: DEFAULT_DEADLINE_DAYS[regulator],
          connection,
          sealedSecret,
        })
        .onConflictDoUpdate({
          target: regulatorSettings.regulator,
          set: { connection, sealedSecret, updatedAt: new Date() },
        })
        .returning({
          connection: regulatorSettings.connection,
          sealedSecret: regulatorSettings.sealedSecret,
        });
      return row!;
    },

    /** CPE Monitor's answers to the claims sent, by claim key. */
    async submissions() {
      return db.select().from(cpeMonitorSubmissions);
    },

    /**
     * Takes a claim to send it to CPE Monitor until `until`, unless another instance is
     * sending it: its submission as it stands then (a first one is recorded waiting, due
     * again when the hold ends, should the sender's process end before it answers), or null.
     */
    async holdForSending(
      claim: {
        attestationId: string;
        position: number;
        courseId: string | null;
        fingerprint: string;
      },
      now: Date,
      until: Date,
    ) {
      const [row] = await db
        .insert(cpeMonitorSubmissions)
        .values({
          ...claim,
          status: "waiting",
          nextAttemptAt: until,
          submittedAt: now,
          sendingUntil: until,
        })
        .onConflictDoUpdate({
          target: [cpeMonitorSubmissions.attestationId, cpeMonitorSubmissions.position],
          set: { sendingUntil: until },
          where: or(
            isNull(cpeMonitorSubmissions.sendingUntil),
            lte(cpeMonitorSubmissions.sendingUntil, now),
          ),
        })
        .returning();
      return row ?? null;
    },

    /** Gives back a claim held for sending but not sent (another instance already did). */
    async releaseSending(key: { attestationId: string; position: number }) {
      await db
        .update(cpeMonitorSubmissions)
        .set({ sendingUntil: null })
        .where(
          and(
            eq(cpeMonitorSubmissions.attestationId, key.attestationId),
            eq(cpeMonitorSubmissions.position, key.position),
          ),
        );
    },

    /** Records CPE Monitor's answer to a claim, and frees it for the next send. */
    async saveSubmission(row: typeof cpeMonitorSubmissions.$inferInsert) {
      await db
        .insert(cpeMonitorSubmissions)
        .values({ ...row, sendingUntil: null })
        .onConflictDoUpdate({
          target: [cpeMonitorSubmissions.attestationId, cpeMonitorSubmissions.position],
          set: {
            fingerprint: row.fingerprint,
            status: row.status,
            message: row.message,
            attempts: row.attempts,
            nextAttemptAt: row.nextAttemptAt ?? null,
            answeredAt: row.answeredAt ?? null,
            submittedAt: row.submittedAt,
            submittedBy: row.submittedBy ?? null,
            sendingUntil: null,
          },
        });
    },

    /** The submissions waiting for the service whose next attempt is due. */
    async dueSubmissions(now: Date) {
      return db
        .select()
        .from(cpeMonitorSubmissions)
        .where(
          and(
            eq(cpeMonitorSubmissions.status, "waiting"),
            lte(cpeMonitorSubmissions.nextAttemptAt, now),
          ),
        );
    },

    async deadlines() {
      return db.select().from(regulatorSettings);
    },

    async saveDeadline(regulator: Regulator, deadlineDays: number) {
      await db
        .insert(regulatorSettings)
        .values({ regulator, deadlineDays })
        .onConflictDoUpdate({
          target: regulatorSettings.regulator,
          set: { deadlineDays, updatedAt: new Date() },
        });
    },

    /**
     * Whether the week's digest waits to be taken: never taken yet, or taken long enough ago
     * without reaching every administrator, and not yet taken as often as allowed.
     */
    async digestDue(week: string, retry: DigestRetry) {
      const [row] = await db
        .select({ week: reportingDigests.week })
        .from(reportingDigests)
        .where(
          and(
            eq(reportingDigests.week, week),
            or(
              isNotNull(reportingDigests.sentAt),
              gte(reportingDigests.claimedAt, retry.staleBefore),
              gte(reportingDigests.attempts, retry.maxAttempts),
            ),
          ),
        );
      return row === undefined;
    },

    /**
     * Takes the week's digest, or takes again one that did not reach everyone (see
     * `digestDue`); false when another try holds it or it is done.
     */
    async claimDigest(week: string, at: Date, retry: DigestRetry) {
      const rows = await db
        .insert(reportingDigests)
        .values({ week, claimedAt: at })
        .onConflictDoUpdate({
          target: reportingDigests.week,
          set: { claimedAt: at, attempts: sql`${reportingDigests.attempts} + 1` },
          setWhere: retriable(retry),
        })
        .returning({ week: reportingDigests.week });
      return rows.length > 0;
    },

    /** The administrators the week's digest reached already. */
    async digestRecipients(week: string) {
      const rows = await db
        .select({ userId: reportingDigestSends.userId })
        .from(reportingDigestSends)
        .where(eq(reportingDigestSends.week, week));
      return new Set(rows.map((r) => r.userId));
    },

    async markDigestSentTo(week: string, userId: string, at: Date) {
      await db
        .insert(reportingDigestSends)
        .values({ week, userId, sentAt: at })
        .onConflictDoNothing();
    },

    async markDigestSent(week: string, at: Date) {
      await db.update(reportingDigests).set({ sentAt: at }).where(eq(reportingDigests.week, week));
    },

    /** The credit types of the given ids that belong to the course. */
    async typesOfCourse(courseId: string, ids: string[]) {
      if (!ids.length) return [];
      return db
        .select({ id: creditTypeCourses.creditTypeId })
        .from(creditTypeCourses)
        .where(
          and(
            eq(creditTypeCourses.courseId, courseId),
            inArray(creditTypeCourses.creditTypeId, ids),
          ),
        );
    },

    /** Serialises changes of one course's reporting settings. */
    async lockCourse(courseId: string) {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`reporting:${courseId}`}))`);
    },
  };
}
