import {
  type Certificate,
  type EnrollmentWithRelations,
  maskedLicence,
  type PublicCertificate,
  type Transcript,
  type TranscriptEntry,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { Actor, AuditService } from "../audit/audit.service";
import { createPendingWrites, type PendingWrites } from "../audit/pending-writes";
import type { UserRow } from "../auth/auth.table";
import type { CreditFacts } from "../enrollments/completion-steps";
import { newCertificateCode, normalizeCertificateCode } from "./certificate-code";
import { certificateMails } from "./certificate-mails.table";
import {
  certificateAlreadyRevoked,
  certificateNotFound,
  learnerNotFound,
  notYourTranscript,
} from "./certificates.errors";
import { createCertificatesRepository } from "./certificates.repository";
import type { CertificateRow } from "./certificates.table";

export interface CertificatesServiceDeps {
  db: Database;
  audit: AuditService;
  /** PRODUCT_NAME, recorded on each certificate as its issuer. */
  issuerName: string;
  /** PUBLIC_URL: verification addresses never come from a request's Host header. */
  publicUrl: string;
  enrollments: { listForUser(userId: string): Promise<EnrollmentWithRelations[]> };
  users: { findUser(id: string): Promise<UserRow | undefined> };
}

/** The signed-in user asking: learners see only their own records. */
export type Viewer = { id: string; role: "admin" | "learner" };

/** Issued certificates, their verification, transcripts, and the credit events of enrollments. */
export function createCertificatesService(deps: CertificatesServiceDeps) {
  const { db, audit } = deps;
  const repo = createCertificatesRepository(db);
  const verifyUrl = (code: string) => `${deps.publicUrl.replace(/\/+$/, "")}/verify/${code}`;

  function toPublic(row: CertificateRow): PublicCertificate {
    return {
      code: row.code,
      learnerName: row.learnerName,
      courseTitle: row.courseTitle,
      courseCategory: row.courseCategory,
      durationHours: row.durationHours,
      creditHours: row.creditHours,
      creditType: row.creditType,
      accreditingBody: row.accreditingBody,
      providerNumber: row.providerNumber,
      issuerName: row.issuerName,
      examScore: row.examScore,
      examPassedAt: row.examPassedAt?.toISOString() ?? null,
      credit: row.credit ?? null,
      completedAt: row.completedAt.toISOString(),
      issuedAt: row.issuedAt.toISOString(),
      status: row.revokedAt ? "revoked" : "valid",
      revokedAt: row.revokedAt?.toISOString() ?? null,
      revokedReason: row.revokedReason,
      verifyUrl: verifyUrl(row.code),
    };
  }

  function toCertificate(row: CertificateRow): Certificate {
    return {
      ...toPublic(row),
      id: row.id,
      enrollmentId: row.enrollmentId,
      userId: row.userId,
      courseId: row.courseId,
    };
  }

  /**
   * Issues the certificate of a completed enrollment inside the caller's transaction.
   * Idempotent: the unique enrollment_id makes a second call (a retry, a race) return the
   * first certificate. Returns undefined when the enrollment is not completed. Its queued
   * mail and audit event join the caller's `pending` writes when given (written before the
   * transaction commits), else they are written at once.
   */
  async function issueIn(
    tx: Executor,
    enrollmentId: string,
    actor: Actor,
    facts: CreditFacts = {},
    pending?: PendingWrites,
  ) {
    const txRepo = createCertificatesRepository(tx);
    const source = await txRepo.snapshotSource(enrollmentId);
    if (!source?.isCompleted || !source.completedAt) return undefined;
    const row = await txRepo.insert({
      code: newCertificateCode(),
      enrollmentId,
      userId: source.userId,
      courseId: source.courseId,
      learnerName: source.learnerName,
      learnerEmail: source.learnerEmail,
      courseTitle: source.courseTitle,
      courseCategory: source.courseCategory,
      durationHours: source.durationHours,
      creditHours: source.creditHours,
      creditType: source.creditType,
      accreditingBody: source.accreditingBody,
      providerNumber: source.providerNumber,
      issuerName: deps.issuerName,
      examScore: facts.examScore ?? null,
      examPassedAt: facts.examPassedAt ?? null,
      credit: facts.credit ?? null,
      enrolledAt: source.enrolledAt,
      completedAt: source.completedAt,
    });
    if (!row) return txRepo.findByEnrollment(enrollmentId);
    const writes = pending ?? createPendingWrites(audit);
    // Queued with the certificate, sent after commit (certificate-mails.service.ts).
    writes.insert(certificateMails, { certificateId: row.id });
    writes.audit({
      type: "certificate.issued",
      actor,
      learnerId: row.userId,
      courseId: row.courseId,
      details: {
        certificateId: row.id,
        code: row.code,
        learnerName: row.learnerName,
        courseTitle: row.courseTitle,
        creditHours: row.creditHours,
        examScore: row.examScore,
      },
    });
    if (!pending) await writes.flush(tx);
    return row;
  }

  /**
   * Enrollments completed by a path that does not pass through completeModule (a module
   * deleted from the course, or a completion recorded before certificates were issued) get their certificate on first
   * read, each in its own transaction.
   */
  async function issueMissing(userId: string) {
    for (const enrollmentId of await repo.completedWithoutCertificate(userId)) {
      await db.transaction((tx) => issueIn(tx, enrollmentId, null));
    }
  }

  return {
    /**
     * A course's certificates that still count, oldest first, with what only the credit
     * report shows: the learner's email and enrollment date.
     */
    async creditedOfCourse(courseId: string) {
      return (await repo.validOfCourse(courseId)).map((row) => ({
        ...toCertificate(row),
        learnerEmail: row.learnerEmail,
        enrolledAt: row.enrolledAt.toISOString(),
      }));
    },
    toCertificate,

    /** Issues a completed enrollment's certificate, in the enrollments' own transaction. */
    issueIn,

    /** The signed-in learner's certificates, oldest first. */
    async mine(userId: string): Promise<Certificate[]> {
      await issueMissing(userId);
      return (await repo.listByUser(userId)).map(toCertificate);
    },

    /**
     * Public verification. Every code that names no certificate, malformed or well-formed,
     * gets the same 404 after the same single indexed lookup: nothing tells them apart.
     * Anyone may hold a code (it is printed and shared), so the learner's licence and NPN
     * are masked to their last characters; the learner and administrators see them whole.
     */
    async verify(code: string): Promise<PublicCertificate> {
      const row = await repo.findByCode(normalizeCertificateCode(code));
      if (!row) throw certificateNotFound();
      const certificate = toPublic(row);
      const credit = certificate.credit;
      if (!credit?.licence) return certificate;
      return { ...certificate, credit: { ...credit, licence: maskedLicence(credit.licence) } };
    },

    /** A certificate for its learner or an administrator; 404 for anyone else's. */
    async forViewer(id: string, viewer: Viewer): Promise<Certificate> {
      const row = await repo.findById(id);
      if (!row || (viewer.role !== "admin" && row.userId !== viewer.id)) {
        throw certificateNotFound();
      }
      return toCertificate(row);
    },

    /** Revokes once, with the reason, and records it in the audit trail. */
    async revoke(input: { id: string; reason: string; actor: Viewer }): Promise<Certificate> {
      return db.transaction(async (tx) => {
        const txRepo = createCertificatesRepository(tx);
        const row = await txRepo.revoke(input.id, input.reason, input.actor.id);
        if (!row) {
          if (await txRepo.findById(input.id)) throw certificateAlreadyRevoked();
          throw certificateNotFound();
        }
        await audit.append(tx, {
          type: "certificate.revoked",
          actor: input.actor,
          learnerId: row.userId,
          courseId: row.courseId,
          details: { certificateId: row.id, code: row.code, reason: input.reason },
        });
        return toCertificate(row);
      });
    },

    /**
     * A learner's transcript: every course they are enrolled in, and every certificate
     * they hold (also for an enrollment since removed), with the credit as certified.
     */
    async transcript(learnerId: string, viewer: Viewer): Promise<Transcript> {
      if (viewer.role !== "admin" && viewer.id !== learnerId) throw notYourTranscript();
      const learner = await deps.users.findUser(learnerId);
      if (!learner || learner.role !== "learner") throw learnerNotFound();
      await issueMissing(learnerId);
      const [enrollments, issued] = await Promise.all([
        deps.enrollments.listForUser(learnerId),
        repo.listByUser(learnerId),
      ]);
      const byEnrollment = new Map(issued.map((c) => [c.enrollmentId, c]));
      const certificateOf = (row: CertificateRow | undefined) =>
        row
          ? {
              id: row.id,
              code: row.code,
              status: row.revokedAt ? ("revoked" as const) : ("valid" as const),
              revokedAt: row.revokedAt?.toISOString() ?? null,
              revokedReason: row.revokedReason,
              verifyUrl: verifyUrl(row.code),
            }
          : null;

      const entries: TranscriptEntry[] = enrollments.map((e) => {
        const cert = byEnrollment.get(e.id);
        // A certificate's snapshot is what was certified; the course may have changed since.
        return {
          courseId: e.courseId,
          courseTitle: cert?.courseTitle ?? e.course.title,
          courseCategory: cert?.courseCategory ?? e.course.category,
          status: e.isCompleted ? "completed" : e.progress > 0 ? "in-progress" : "not-started",
          progress: e.isCompleted ? 100 : e.progress,
          enrolledAt: e.createdAt,
          completedAt: cert?.completedAt.toISOString() ?? e.completedAt,
          durationHours: cert?.durationHours ?? e.course.duration,
          creditHours: cert ? cert.creditHours : e.course.creditHours,
          creditType: cert ? cert.creditType : e.course.creditType,
          accreditingBody: cert ? cert.accreditingBody : e.course.accreditingBody,
          providerNumber: cert ? cert.providerNumber : e.course.providerNumber,
          examScore: cert?.examScore ?? null,
          examPassedAt: cert?.examPassedAt?.toISOString() ?? null,
          certificate: certificateOf(cert),
        };
      });
      const current = new Set(enrollments.map((e) => e.id));
      for (const cert of issued) {
        if (cert.enrollmentId && current.has(cert.enrollmentId)) continue;
        entries.push({
          courseId: cert.courseId,
          courseTitle: cert.courseTitle,
          courseCategory: cert.courseCategory,
          status: "completed",
          progress: 100,
          enrolledAt: cert.enrolledAt.toISOString(),
          completedAt: cert.completedAt.toISOString(),
          durationHours: cert.durationHours,
          creditHours: cert.creditHours,
          creditType: cert.creditType,
          accreditingBody: cert.accreditingBody,
          providerNumber: cert.providerNumber,
          examScore: cert.examScore,
          examPassedAt: cert.examPassedAt?.toISOString() ?? null,
          certificate: certificateOf(cert),
        });
      }
      // Completed courses first, by completion date; then the rest by enrollment date.
      entries.sort(
        (a, b) =>
          (a.completedAt ? 0 : 1) - (b.completedAt ? 0 : 1) ||
          (a.completedAt ?? "").localeCompare(b.completedAt ?? "") ||
          (a.enrolledAt ?? "").localeCompare(b.enrolledAt ?? ""),
      );
      const creditHours = entries.reduce(
        (sum, e) => sum + (e.certificate?.status === "valid" ? (e.creditHours ?? 0) : 0),
        0,
      );
      return {
        learner: { id: learner.id, name: learner.name, email: learner.email },
        issuerName: deps.issuerName,
        generatedAt: new Date().toISOString(),
        totals: {
          courses: entries.length,
          completed: entries.filter((e) => e.status === "completed").length,
          creditHours: Math.round(creditHours * 100) / 100,
        },
        entries,
      };
    },
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;
