import { z } from "zod";
import { certificateCreditSchema } from "./credit";
import { calendarDateSchema } from "./dates";

/**
 * Issued certificates, their public verification, transcripts and the audit
 * export. An issued certificate is a snapshot: these fields never change after issue.
 */
export const certificateStatusSchema = z.enum(["valid", "revoked"]);
export type CertificateStatus = z.infer<typeof certificateStatusSchema>;

/** What anyone holding the code may see: the certificate, nothing else about the learner. */
export const publicCertificateSchema = z.object({
  code: z.string(),
  learnerName: z.string(),
  courseTitle: z.string(),
  courseCategory: z.string(),
  durationHours: z.number().int(),
  creditHours: z.number().nullable(),
  creditType: z.string().nullable(),
  accreditingBody: z.string().nullable(),
  providerNumber: z.string().nullable(),
  issuerName: z.string(),
  /** The passing final-exam score (whole percent) and its time; null without an exam. */
  examScore: z.number().int().nullable(),
  examPassedAt: z.string().nullable(),
  /** What a credit-ready certificate prints; null for a course without credit settings. */
  credit: certificateCreditSchema.nullable(),
  completedAt: z.string(),
  issuedAt: z.string(),
  status: certificateStatusSchema,
  revokedAt: z.string().nullable(),
  revokedReason: z.string().nullable(),
  /** The public verification page of this certificate (built from PUBLIC_URL). */
  verifyUrl: z.string(),
});
export type PublicCertificate = z.infer<typeof publicCertificateSchema>;

/** The certificate as its learner and administrators see it. */
export const certificateSchema = publicCertificateSchema.extend({
  id: z.string(),
  enrollmentId: z.string().nullable(),
  userId: z.string().nullable(),
  courseId: z.string().nullable(),
});
export type Certificate = z.infer<typeof certificateSchema>;

export const verifyCertificateResponseSchema = z.object({ certificate: publicCertificateSchema });
export type VerifyCertificateResponse = z.infer<typeof verifyCertificateResponseSchema>;

/** The one answer for every code that names no certificate, well-formed or not. */
export const CERTIFICATE_NOT_FOUND = "No certificate matches this code.";

export const REVOKE_REASON_MAX = 500;
export const revokeCertificateBodySchema = z.object({
  reason: z
    .string()
    .trim()
    .min(3, "Give a reason of at least 3 characters")
    .max(REVOKE_REASON_MAX, `At most ${REVOKE_REASON_MAX} characters`),
});
export type RevokeCertificateBody = z.infer<typeof revokeCertificateBodySchema>;

export const transcriptEntrySchema = z.object({
  courseId: z.string().nullable(),
  courseTitle: z.string(),
  courseCategory: z.string(),
  status: z.enum(["not-started", "in-progress", "completed"]),
  progress: z.number().int(),
  enrolledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  durationHours: z.number().int(),
  creditHours: z.number().nullable(),
  creditType: z.string().nullable(),
  accreditingBody: z.string().nullable(),
  providerNumber: z.string().nullable(),
  /** From the certificate: the passing final-exam score and its time. */
  examScore: z.number().int().nullable(),
  examPassedAt: z.string().nullable(),
  certificate: z
    .object({
      id: z.string(),
      code: z.string(),
      status: certificateStatusSchema,
      revokedAt: z.string().nullable(),
      revokedReason: z.string().nullable(),
      verifyUrl: z.string(),
    })
    .nullable(),
});
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;

export const transcriptSchema = z.object({
  learner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  issuerName: z.string(),
  generatedAt: z.string(),
  totals: z.object({
    courses: z.number().int(),
    completed: z.number().int(),
    /** Credit hours of valid certificates only: a revoked one no longer counts. */
    creditHours: z.number(),
  }),
  entries: z.array(transcriptEntrySchema),
});
export type Transcript = z.infer<typeof transcriptSchema>;

/** GET /api/audit: every filter optional; `from` and `to` are whole UTC days, inclusive. */
export const auditQuerySchema = z.object({
  learnerId: z.string().trim().max(64).optional(),
  courseId: z.string().trim().max(64).optional(),
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** GET /api/audit/verify: the hash chain walked up to its head, and the first break, if any. */
export const chainReportSchema = z.object({
  ok: z.boolean(),
  checked: z.number(),
  headSeq: z.number().nullable(),
  headHash: z.string().nullable(),
  /** Events committed but not yet chained (the linker chains them within a second). */
  unlinked: z.number(),
  broken: z.object({ seq: z.number(), reason: z.string() }).optional(),
});
export type ChainReport = z.infer<typeof chainReportSchema>;

/**
 * SPEC section 3's file name, "Certificate-{course title with dashes}", for the HTML file the
 * browser builds and the PDF the server sends.
 */
export function certificateFileName(courseTitle: string, extension: "html" | "pdf"): string {
  return `Certificate-${courseTitle.replace(/\s+/g, "-")}.${extension}`;
}

/** A course's length as printed on a certificate: "1 hour", "40 hours". */
export function hoursText(hours: number): string {
  return `${hours} ${hours === 1 ? "hour" : "hours"}`;
}

/** Formats a stored code for reading: groups of 4 (XXXX-XXXX-…). */
export function formatCertificateCode(code: string): string {
  return code.match(/.{1,4}/g)?.join("-") ?? code;
}

/**
 * The credit as printed: "2.5 CME credit hours", "Accredited by …", "Provider no. …", and
 * "Final exam passed with 85% on 2026-11-24" for a course with an exam.
 */
export function creditLines(c: {
  creditHours: number | null;
  creditType: string | null;
  accreditingBody: string | null;
  providerNumber: string | null;
  examScore?: number | null;
  examPassedAt?: string | null;
}): string[] {
  const lines: string[] = [];
  if (c.creditHours !== null) {
    const unit = c.creditHours === 1 ? "credit hour" : "credit hours";
    lines.push(`${c.creditHours} ${c.creditType ? `${c.creditType} ` : ""}${unit}`);
  } else if (c.creditType) {
    lines.push(c.creditType);
  }
  if (c.accreditingBody) lines.push(`Accredited by ${c.accreditingBody}`);
  if (c.providerNumber) lines.push(`Provider no. ${c.providerNumber}`);
  if (c.examScore != null) {
    const on = c.examPassedAt ? ` on ${c.examPassedAt.slice(0, 10)}` : "";
    lines.push(`Final exam passed with ${c.examScore}%${on}`);
  }
  return lines;
}
