import {
  creditLines,
  formatCertificateCode,
  hoursText,
  type PublicCertificate,
} from "./certificates";
import { claimedFields } from "./credit";
import { type DateFormat, formatDocumentDate } from "./organisation";

/**
 * One certificate, as every rendering of it prints it: the HTML file the browser builds,
 * the PDF the server draws and the public verification page all take their texts from here,
 * so they never disagree on a field, a label or a date's format.
 */

/** A labelled value, printed as "Label: value" or in a label and value column. */
export interface CertificateField {
  label: string;
  value: string;
}

export interface CertificateDocument {
  issuer: { name: string; logoUrl: string | null };
  learnerName: string;
  courseTitle: string;
  /**
   * Under the course title, on a course without credit: the spec's certificate line, as
   * metaText prints it. Null with credit.
   */
  meta: { category: string; length: string; completedOn: string } | null;
  /**
   * Under the course title, on a course with credit: its field of study, the course length
   * and the credit claimed, each labelled so a length is never read as credit.
   */
  fields: CertificateField[];
  /** Further lines under them: how the credit is accredited, the final exam passed. */
  notes: string[];
  /** The completion date, as the footer prints it. */
  completedOn: string;
  /** The responsible official signing a credit certificate, or null for the issuer's line. */
  signatory: { name: string; title: string | null } | null;
  /** The verification code (grouped) and address; null before the certificate is issued. */
  verification: { code: string; url: string } | null;
  /** The second page of a credit-ready certificate: everything the accreditor prescribes. */
  details: CertificateField[] | null;
  revoked: { on: string; reason: string } | null;
}

/** What a document is built from: an issued certificate, or an enrollment not yet issued one. */
export type CertificateSource = Pick<
  PublicCertificate,
  | "learnerName"
  | "courseTitle"
  | "courseCategory"
  | "durationHours"
  | "credits"
  | "issuerName"
  | "issuerLogoUrl"
  | "examScore"
  | "examPassedAt"
  | "credit"
  | "completedAt"
  | "revokedAt"
  | "revokedReason"
> & { code: string | null; verifyUrl: string | null };

const text = (value: string | null | undefined) => value?.trim() || null;

/** Whether the certificate is of a course with credit (credit claimed, or a credit-ready claim). */
export const certifiesCredit = (c: Pick<CertificateSource, "credits" | "credit">) =>
  c.credits.length > 0 || c.credit !== null;

/** The fields of study a credit certificate names ("Auditing, Taxation"), or null. */
export function fieldOfStudyText(c: Pick<CertificateSource, "credit">): string | null {
  const names = (c.credit?.fieldsOfStudy ?? []).map((f) => f.field.trim()).filter(Boolean);
  return names.length ? names.join(", ") : null;
}

/** The label of fieldOfStudyText's value. */
export const fieldOfStudyLabel = (c: Pick<CertificateSource, "credit">) =>
  (c.credit?.fieldsOfStudy.length ?? 0) > 1 ? "Fields of study" : "Field of study";

/** The professions the claimed credit serves, each once ("Nursing, Medicine"), or null. */
const professionText = (c: { credits: { profession?: string | null }[] }) =>
  [...new Set(c.credits.map((credit) => credit.profession?.trim()).filter(Boolean))].join(", ") ||
  null;

/**
 * What a credit certificate is in, where a course without credit names its category: its
 * fields of study, else the profession its credit serves.
 */
export function creditSubject(
  c: Pick<CertificateSource, "credit"> & { credits: { profession?: string | null }[] },
): { label: string; value: string } | null {
  const field = fieldOfStudyText(c);
  if (field) return { label: fieldOfStudyLabel(c), value: field };
  const profession = professionText(c);
  return profession ? { label: "Profession", value: profession } : null;
}

/**
 * Each field's credits, scaled to a partial claim of a single credit type: the fields share
 * the designated credit, so a learner claiming half gets half in each.
 */
function fieldCredits(c: CertificateSource): string | null {
  const fields = c.credit?.fieldsOfStudy ?? [];
  if (!fields.length) return null;
  const designated = fields.reduce((sum, f) => sum + f.credits, 0);
  const claimed = c.credits.length === 1 ? c.credits[0]!.amount : designated;
  return claimedFields(fields, designated, Math.min(claimed, designated))
    .map((f) => `${f.field}: ${f.credits}`)
    .join(" · ");
}

/** "CPA 12345 (California) · NPN 8812345": what identifies the learner to their licensing body. */
function licenceText(c: CertificateSource): string | null {
  const l = c.credit?.licence;
  if (!l) return null;
  const parts: string[] = [];
  const licence = [l.licenceType, l.licenceNumber].filter(Boolean).join(" ");
  if (licence) parts.push(l.licenceState ? `${licence} (${l.licenceState})` : licence);
  if (l.npn) parts.push(`NPN ${l.npn}`);
  return parts.length ? parts.join(" · ") : null;
}

/** The claimed types' statements, each once; a certificate from before types kept one. */
function statements(c: CertificateSource, key: "accreditationStatement" | "designationStatement") {
  const own = [...new Set(c.credits.map((credit) => credit[key].trim()).filter(Boolean))];
  if (own.length || key === "designationStatement") return own.join("\n\n") || null;
  return text(c.credit?.accreditationStatement);
}

/**
 * The certificate's texts in the portal's date format. `timeZone` is UTC unless given: the
 * PDF and the HTML of one certificate print the same day.
 */
export function certificateDocument(
  c: CertificateSource,
  options: { dateFormat: DateFormat; timeZone?: string },
): CertificateDocument {
  const date = (iso: string) => formatDocumentDate(iso, options.dateFormat, options.timeZone);
  const completedOn = date(c.completedAt);
  const credit = c.credit;
  // The contract's credit wording: each claimed amount ("1 contact hour"), then each body
  // with its provider number ("Accredited by ANCC", "Provider no. 112233").
  const wording = creditLines({ credits: c.credits });
  const amounts = wording.slice(0, c.credits.length).join(" · ") || null;
  const accreditation = wording.slice(c.credits.length);
  const exam =
    c.examScore !== null && c.examPassedAt
      ? `Passed with ${c.examScore}% on ${date(c.examPassedAt)}`
      : null;
  let meta: CertificateDocument["meta"] = null;
  const fields: CertificateField[] = [];
  const notes: string[] = [];
  if (certifiesCredit(c)) {
    // A credit certificate prints the credit and what it is in, never the spec's category
    // or whole-hour length, which an auditor would read against the credit.
    const subject = creditSubject(c);
    if (subject) fields.push(subject);
    if (amounts) fields.push({ label: "Credit", value: amounts });
    if (!credit && accreditation.length) notes.push(accreditation.join(" · "));
  } else {
    meta = { category: c.courseCategory, length: hoursText(c.durationHours), completedOn };
  }
  // A credit-ready certificate lists the exam among its details on the second page.
  if (exam && !credit) notes.push(`Final exam: ${exam}`);

  let details: CertificateField[] | null = null;
  if (credit) {
    const rows: [string, string | null][] = [
      ["Sponsor", text(credit.sponsorName)],
      ["Sponsor address", text(credit.sponsorAddress.split(/\s*\n\s*/).join(", "))],
      ["Delivery method", text(credit.deliveryMethod)],
      ["Credit", amounts],
      [fieldOfStudyLabel(c), fieldCredits(c)],
      ["Profession", fieldCredits(c) ? null : professionText(c)],
      ["Accreditation", accreditation.join(" · ") || null],
      ["Learner's licence", licenceText(c)],
      ["Attested on", credit.attestedAt ? date(credit.attestedAt) : null],
      ["Completed on", completedOn],
      ["Final exam", exam],
      ["Accreditation statement", statements(c, "accreditationStatement")],
      ["Designation statement", statements(c, "designationStatement")],
    ];
    details = rows.flatMap(([label, value]) => (value ? [{ label, value }] : []));
  }

  const officialName = text(credit?.officialName);
  return {
    issuer: { name: c.issuerName, logoUrl: c.issuerLogoUrl },
    learnerName: c.learnerName,
    courseTitle: c.courseTitle,
    meta,
    fields,
    notes,
    completedOn,
    signatory: officialName ? { name: officialName, title: text(credit?.officialTitle) } : null,
    verification:
      c.code && c.verifyUrl ? { code: formatCertificateCode(c.code), url: c.verifyUrl } : null,
    details,
    revoked: c.revokedAt ? { on: date(c.revokedAt), reason: c.revokedReason ?? "" } : null,
  };
}

/**
 * The spec's certificate line: "Development · 1 hour of study · completed on November 26,
 * 2026". `mark` wraps the category, which users type (a PDF isolates its text direction).
 */
export const metaText = (
  meta: NonNullable<CertificateDocument["meta"]>,
  mark: (text: string) => string = (t) => t,
) => `${mark(meta.category)} · ${meta.length} of study · completed on ${meta.completedOn}`;

/** A field as one line of text: "Course length: 1 hour". */
export const fieldText = (f: CertificateField) => `${f.label}: ${f.value}`;
