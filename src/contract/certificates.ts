import { z } from "zod";
import { certificateCreditSchema, completionStepKeySchema } from "./credit";
import { type ClaimedCredit, claimedCreditSchema, creditTotalSchema } from "./credit-types";
import { type DateFormat, DEFAULT_DATE_FORMAT, formatDocumentDate } from "./organisation";

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
  /** The credit the learner claimed, one entry per credit type; empty without credit. */
  credits: z.array(claimedCreditSchema),
  /**
   * The claimed credit when exactly one type is claimed (its amount, name, body and provider
   * number); null when none or several are: amounts of different types are never added.
   */
  creditHours: z.number().nullable(),
  creditType: z.string().nullable(),
  accreditingBody: z.string().nullable(),
  providerNumber: z.string().nullable(),
  issuerName: z.string(),
  /** The issuing organisation's logo as it was at issue, or null without one. */
  issuerLogoUrl: z.string().nullable(),
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

/** The longest text a certificate's code is typed as: 32 characters, with dashes or spaces. */
export const CERTIFICATE_CODE_INPUT_MAX = 64;
export const CERTIFICATE_CODE_INVALID =
  "This is not a valid certificate code: a code has 32 letters and digits.";
/** A code as the verification address carries it; longer text cannot be any certificate's. */
export const certificateCodeParamSchema = z
  .string()
  .max(CERTIFICATE_CODE_INPUT_MAX, CERTIFICATE_CODE_INVALID);

export const REVOKE_REASON_MAX = 500;
export const revokeCertificateBodySchema = z.object({
  reason: z
    .string()
    .trim()
    .min(3, "Give a reason of at least 3 characters")
    .max(REVOKE_REASON_MAX, `The reason must be at most ${REVOKE_REASON_MAX} characters`),
});
export type RevokeCertificateBody = z.infer<typeof revokeCertificateBodySchema>;

export const transcriptEntrySchema = z.object({
  courseId: z.string().nullable(),
  courseTitle: z.string(),
  courseCategory: z.string(),
  status: z.enum(["not-started", "in-progress", "completed"]),
  progress: z.number().int(),
  /**
   * For a course whose modules are all done but which is not complete: the required step the
   * learner has yet to take ("exam", "attestation"…), so a view says what is true rather than
   * "In progress · 100%"; null otherwise.
   */
  nextStep: completionStepKeySchema.nullable(),
  /** The learner sat the final exam and failed it (no attempt passed, none open). */
  examFailed: z.boolean(),
  enrolledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  durationHours: z.number().int(),
  /** The credit earned, from the certificate only: empty until it is issued. */
  credits: z.array(claimedCreditSchema),
  /** As on the certificate: the credit when exactly one type is claimed, else null. */
  creditHours: z.number().nullable(),
  creditType: z.string().nullable(),
  accreditingBody: z.string().nullable(),
  providerNumber: z.string().nullable(),
  /**
   * What a course with credit prints in place of the spec's category: its fields of study
   * as certified ("Auditing, Taxation"); null without credit or before a certificate.
   */
  fieldOfStudy: z.string().nullable(),
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
  /** The organisation issuing the transcript (the portal's product name until one is set). */
  issuerName: z.string(),
  /** Its postal address and contact email; empty when not set. */
  issuerAddress: z.string(),
  issuerContactEmail: z.string(),
  generatedAt: z.string(),
  totals: z.object({
    courses: z.number().int(),
    completed: z.number().int(),
    /**
     * The credit of valid certificates (a revoked one no longer counts), one total per credit
     * type: types are never added together.
     */
    credits: z.array(creditTotalSchema),
  }),
  entries: z.array(transcriptEntrySchema),
});
export type Transcript = z.infer<typeof transcriptSchema>;

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
 * The credit as printed: one line per claimed type ("1 contact hour", "1.5 CPE credits"),
 * then each accrediting body once with its provider number ("Accredited by NASBA",
 * "Provider no. 112233"), and "Final exam passed with 85% on November 24, 2026" (in the
 * portal's date format) for a course with an exam.
 */
export function creditLines(
  c: {
    credits: Pick<ClaimedCredit, "text" | "accreditingBody" | "providerNumber">[];
    examScore?: number | null;
    examPassedAt?: string | null;
  },
  dateFormat: DateFormat = DEFAULT_DATE_FORMAT,
): string[] {
  const lines = c.credits.map((credit) => credit.text);
  const bodies = new Set<string>();
  for (const credit of c.credits) {
    const key = `${credit.accreditingBody ?? ""}\u0000${credit.providerNumber ?? ""}`;
    if (bodies.has(key)) continue;
    bodies.add(key);
    if (credit.accreditingBody) lines.push(`Accredited by ${credit.accreditingBody}`);
    if (credit.providerNumber) lines.push(`Provider no. ${credit.providerNumber}`);
  }
  if (c.examScore != null) {
    const on = c.examPassedAt ? ` on ${formatDocumentDate(c.examPassedAt, dateFormat)}` : "";
    lines.push(`Final exam passed with ${c.examScore}%${on}`);
  }
  return lines;
}
