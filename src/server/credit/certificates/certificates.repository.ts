import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { courseSummaries } from "../../catalogue";
import type { Executor } from "../../db/client";
import { enrollmentRecords } from "../../learning";
import { userAccounts } from "../../people";
import { type CertificateRow, certificates } from "./certificates.table";

export function createCertificatesRepository(db: Executor) {
  return {
    /**
     * What a certificate snapshots, read in the completing transaction itself: the snapshot
     * must be exactly what that transaction saw, and (on PGlite) a read outside it would wait
     * for it. The enrollment, learner and course come as their owners expose them, joined in
     * one statement.
     */
    async snapshotSource(enrollmentId: string) {
      const [row] = await db
        .select({
          enrollmentId: enrollmentRecords.id,
          userId: enrollmentRecords.userId,
          courseId: enrollmentRecords.courseId,
          isCompleted: enrollmentRecords.isCompleted,
          enrolledAt: enrollmentRecords.createdAt,
          completedAt: enrollmentRecords.completedAt,
          learnerName: userAccounts.name,
          learnerEmail: userAccounts.email,
          courseTitle: courseSummaries.title,
          courseCategory: courseSummaries.category,
          durationHours: courseSummaries.duration,
        })
        .from(enrollmentRecords)
        .innerJoin(userAccounts, eq(userAccounts.id, enrollmentRecords.userId))
        .innerJoin(courseSummaries, eq(courseSummaries.id, enrollmentRecords.courseId))
        .where(eq(enrollmentRecords.id, enrollmentId));
      return row;
    },

    /** A course's certificates that still count (not revoked), oldest first: the credit report. */
    async validOfCourse(courseId: string): Promise<CertificateRow[]> {
      return db
        .select()
        .from(certificates)
        .where(and(eq(certificates.courseId, courseId), isNull(certificates.revokedAt)))
        .orderBy(asc(certificates.completedAt), asc(certificates.id));
    },

    /** Inserts unless the enrollment has one already (unique): undefined then. */
    async insert(values: typeof certificates.$inferInsert): Promise<CertificateRow | undefined> {
      const [row] = await db
        .insert(certificates)
        .values(values)
        .onConflictDoNothing({ target: certificates.enrollmentId })
        .returning();
      return row;
    },

    async findByEnrollment(enrollmentId: string): Promise<CertificateRow | undefined> {
      const [row] = await db
        .select()
        .from(certificates)
        .where(eq(certificates.enrollmentId, enrollmentId));
      return row;
    },

    async findByCode(code: string): Promise<CertificateRow | undefined> {
      const [row] = await db.select().from(certificates).where(eq(certificates.code, code));
      return row;
    },

    async findById(id: string): Promise<CertificateRow | undefined> {
      const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
      return row;
    },

    async listByUser(userId: string): Promise<CertificateRow[]> {
      return db
        .select()
        .from(certificates)
        .where(eq(certificates.userId, userId))
        .orderBy(asc(certificates.completedAt), asc(certificates.id));
    },

    /** Records the revocation once; undefined when already revoked (or missing). */
    async revoke(id: string, reason: string, by: string): Promise<CertificateRow | undefined> {
      const [row] = await db
        .update(certificates)
        .set({ revokedAt: sql`now()`, revokedReason: reason, revokedBy: by })
        .where(and(eq(certificates.id, id), isNull(certificates.revokedAt)))
        .returning();
      return row;
    },
  };
}
