import {
  type Certificate,
  creditSubject,
  logoUrl,
  maskedLicence,
  type Organisation,
  type PublicCertificate,
  type Transcript,
  type TranscriptEntry,
  withCreditText,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { CreditFacts, EnrollmentsService } from "../../learning";
import { examFailedOf } from "../../learning";
import type { Events } from "../../lib/events";
import type { UserRow } from "../../people";
import type { Actor, AuditService } from "../../platform";
import { createPendingWrites, type PendingWrites } from "../../platform";
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
import { catalogueTotals } from "./credit-totals";

export interface CertificatesServiceDeps {
  db: Database;
  audit: AuditService;
  /**
   * The organisation feature: the issuer recorded on each certificate (its name and logo),
   * and named on transcripts.
   */
  organisation: {
    issuer(tx: Executor): Promise<{ name: string; logoId: string | null }>;
    profile(): Promise<Organisation>;
  };
  /** PUBLIC_URL: verification addresses never come from a request's Host header. */
  publicUrl: string;
  /** The learning context: a learner's enrollments, and where they stand with a course. */
  enrollments: Pick<EnrollmentsService, "listForUser" | "completion">;
  users: { findUser(id: string): Promise<UserRow | undefined> };
  /** Completions announced by the gate (enrollment.completed), each issued its certificate. */
  events: Pick<Events, "subscribe">;
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
      credits: row.credits.map(withCreditText),
      creditHours: row.creditHours,
      creditType: row.creditType,
      accreditingBody: row.accreditingBody,
      providerNumber: row.providerNumber,
      issuerName: row.issuerName,
      issuerLogoUrl: row.issuerLogoId ? logoUrl(row.issuerLogoId) : null,
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
    const credits = facts.credits ?? [];
    const single = credits.length === 1 ? credits[0] : undefined;
    const issuer = await deps.organisation.issuer(tx);
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
      credits,
      // The single-type fields repeat a claim of one type; several are never added up.
      creditHours: single?.amount ?? null,
      creditType: single?.name ?? null,
      accreditingBody: single?.accreditingBody ?? null,
      providerNumber: single?.providerNumber ?? null,
      issuerName: issuer.name,
      issuerLogoId: issuer.logoId,
      examScore: facts.examScore ?? null,
      examPassedAt: facts.examPassedAt ?? null,
      credit: facts.credit ?? null,
      achievement: facts.steps
        ? { steps: facts.steps, creditsOffered: facts.creditsOffered ?? [] }
        : null,
      enrolledAt: source.enrolledAt,
      completedAt: source.completedAt,
    });
    if (!row) return txRepo.findByEnrollment(enrollmentId);
    const writes = pending ?? createPendingWrites(audit);
    // Queued with the certificate, sent after commit (certificate-mails.service.ts).
    writes.insert(certificateMails, { certificateId: row.id, kind: "issued" });
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
        credits: row.credits.map((c) => ({ name: c.name, amount: c.amount })),
        examScore: row.examScore,
      },
    });
    if (!pending) await writes.flush(tx);
    return row;
  }

  // The one gate of completion announces each completion in its transaction; the
  // certificate is issued there, so a completion never stands without it.
  deps.events.subscribe("enrollment.completed", {
    async inTransaction(tx, { enrollmentId, actor, facts, pending }) {
      await issueIn(tx, enrollmentId, actor, facts, pending);
    },
  });

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

    /** The signed-in learner's certificates, oldest first. */
    async mine(userId: string): Promise<Certificate[]> {
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

    /**
     * The certificate a code names, whoever asks, with what its Open Badges credential is
     * written from besides: the course's steps and credit offered at issue. Undefined for a
     * code that names none. The credentials feature decides who may see what.
     */
    async snapshotByCode(code: string) {
      const row = await repo.findByCode(normalizeCertificateCode(code));
      return row ? { certificate: toCertificate(row), achievement: row.achievement } : undefined;
    },

    /** A certificate for its learner or an administrator; 404 for anyone else's. */
    async forViewer(id: string, viewer: Viewer): Promise<Certificate> {
      const row = await repo.findById(id);
      if (!row || (viewer.role !== "admin" && row.userId !== viewer.id)) {
        throw certificateNotFound();
      }
      return toCertificate(row);
    },

    /**
     * Revokes once, with the reason, records it in the audit trail and queues the learner's
     * email, all in one transaction: the mail goes out after commit, once
     * (certificate-mails.service.ts); a refused revocation queues nothing.
     */
    async revoke(input: { id: string; reason: string; actor: Viewer }): Promise<Certificate> {
      return db.transaction(async (tx) => {
        const txRepo = createCertificatesRepository(tx);
        const row = await txRepo.revoke(input.id, input.reason, input.actor.id);
        if (!row) {
          if (await txRepo.findById(input.id)) throw certificateAlreadyRevoked();
          throw certificateNotFound();
        }
        const writes = createPendingWrites(audit);
        writes.insert(certificateMails, { certificateId: row.id, kind: "revoked" });
        writes.audit({
          type: "certificate.revoked",
          actor: input.actor,
          learnerId: row.userId,
          courseId: row.courseId,
          details: { certificateId: row.id, code: row.code, reason: input.reason },
        });
        await writes.flush(tx);
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

      // Every module done but the course not complete: what is left (a failed exam, the
      // attestation…), so no view says "In progress · 100%" of a learner who cannot finish.
      const waiting = enrollments.filter((e) => !e.isCompleted && e.progress === 100);
      const standings = new Map(
        await Promise.all(
          waiting.map(
            async (e) =>
              [
                e.id,
                {
                  nextStep: (await deps.enrollments.completion(learnerId, e.courseId)).next,
                  examFailed: await examFailedOf(db, e.id),
                },
              ] as const,
          ),
        ),
      );
      const entries: TranscriptEntry[] = enrollments.map((e) => {
        const cert = byEnrollment.get(e.id);
        // A certificate's snapshot is what was certified; the course may have changed since.
        return {
          courseId: e.courseId,
          courseTitle: cert?.courseTitle ?? e.course.title,
          courseCategory: cert?.courseCategory ?? e.course.category,
          status: e.isCompleted ? "completed" : e.progress > 0 ? "in-progress" : "not-started",
          progress: e.isCompleted ? 100 : e.progress,
          nextStep: standings.get(e.id)?.nextStep ?? null,
          examFailed: standings.get(e.id)?.examFailed ?? false,
          enrolledAt: e.createdAt,
          completedAt: cert?.completedAt.toISOString() ?? e.completedAt,
          durationHours: cert?.durationHours ?? e.course.duration,
          // Credit shows once earned: from the certificate, never from what the course offers.
          credits: cert?.credits.map(withCreditText) ?? [],
          creditHours: cert?.creditHours ?? null,
          creditType: cert?.creditType ?? null,
          accreditingBody: cert?.accreditingBody ?? null,
          providerNumber: cert?.providerNumber ?? null,
          fieldOfStudy: cert ? (creditSubject(cert)?.value ?? null) : null,
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
          nextStep: null,
          examFailed: false,
          enrolledAt: cert.enrolledAt.toISOString(),
          completedAt: cert.completedAt.toISOString(),
          durationHours: cert.durationHours,
          credits: cert.credits.map(withCreditText),
          creditHours: cert.creditHours,
          creditType: cert.creditType,
          accreditingBody: cert.accreditingBody,
          providerNumber: cert.providerNumber,
          fieldOfStudy: creditSubject(cert)?.value ?? null,
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
      const issuer = await deps.organisation.profile();
      return {
        learner: { id: learner.id, name: learner.name, email: learner.email },
        issuerName: issuer.issuerName,
        issuerAddress: issuer.address,
        issuerContactEmail: issuer.contactEmail,
        generatedAt: new Date().toISOString(),
        totals: {
          courses: entries.length,
          completed: entries.filter((e) => e.status === "completed").length,
          // One total per catalogue type: a contact hour and a CPE credit are never added.
          credits: await catalogueTotals(
            db,
            issued
              .filter((c) => !c.revokedAt)
              .flatMap((c) =>
                c.credits.map((credit) => ({ enrollmentId: c.enrollmentId, credit })),
              ),
          ),
        },
        entries,
      };
    },
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;
