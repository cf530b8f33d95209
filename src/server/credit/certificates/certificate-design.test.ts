import { describe, expect, it } from "vitest";
import {
  type Certificate,
  certificateDocument,
  type DateFormat,
  formatDocumentDate,
  withCreditText,
} from "../../../contract";
import { buildCertificateHtml } from "../../../web/features/certificates/certificate-html";
import { pdfText } from "../../testing/pdf-text";
import { buildCertificatePdf } from "./certificate-pdf";

/**
 * One certificate design: the HTML file the browser builds and the PDF the server draws print
 * the same document (contract certificate-document.ts). Each is read back as text, the PDF
 * by pdf.js as a reader would, and their fields, labels and dates compared.
 */

const LONG_TITLE = "Director of Continuing Education and Professional Development Programs";

const certificate = (overrides: Partial<Certificate> = {}): Certificate => ({
  id: "cert-1",
  enrollmentId: "enrollment-1",
  userId: "learner-1",
  courseId: "course-1",
  code: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
  learnerName: "Ada Lovelace",
  courseTitle: "Ethics for CPAs",
  courseCategory: "Development",
  durationHours: 1,
  credits: [],
  creditHours: null,
  creditType: null,
  accreditingBody: null,
  providerNumber: null,
  issuerName: "Northwind Academy",
  issuerLogoUrl: null,
  examScore: null,
  examPassedAt: null,
  credit: null,
  completedAt: "2026-11-26T15:00:00.000Z",
  issuedAt: "2026-11-26T15:00:00.000Z",
  status: "valid",
  revokedAt: null,
  revokedReason: null,
  verifyUrl: "https://lms.example.com/verify/ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
  ...overrides,
});

/** A CPA ethics course with credit: one claimed type, a sponsor, fields of study, an official. */
const creditCertificate = certificate({
  courseCategory: "Mobile",
  credits: [
    withCreditText({
      creditTypeId: "type-1",
      name: "CPE credits",
      amount: 1,
      accreditingBody: "NASBA",
      providerNumber: "112233",
      accreditationStatement: "Northwind Academy is registered with NASBA as a CPE sponsor.",
      designationStatement: "",
    }),
  ],
  creditHours: 1,
  creditType: "CPE credits",
  accreditingBody: "NASBA",
  providerNumber: "112233",
  examScore: 85,
  examPassedAt: "2026-11-25T10:00:00.000Z",
  credit: {
    creditsClaimed: 1,
    fieldsOfStudy: [{ field: "Regulatory Ethics", credits: 1 }],
    sponsorName: "Northwind Academy",
    sponsorAddress: "1 Main Street\nSpringfield, IL",
    deliveryMethod: "QAS Self-Study",
    accreditationStatement: "Northwind Academy is registered with NASBA as a CPE sponsor.",
    registryNumber: "",
    officialName: "Dana Lee",
    officialTitle: LONG_TITLE,
    signatureId: null,
    licence: { licenceType: "CPA", licenceNumber: "A-1", licenceState: "Illinois", npn: "" },
    attestedAt: "2026-11-26T14:00:00.000Z",
  },
});

/** Text as a reader gets it, every run of whitespace one space. */
const flat = (text: string) => text.replace(/\s+/g, " ").trim();

/** The HTML file's text: styles and artwork dropped, blocks on their own lines, entities read. */
function htmlText(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/g, "")
    .replace(/<title>[\s\S]*?<\/title>/g, "")
    .replace(/<svg[\s\S]*?<\/svg>/g, "")
    .replace(/<\/?(p|div|dt|dd|dl|h1|h2|article|main)\b[^>]*>/g, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&middot;/g, "·")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Every date printed, in any of the three formats. */
const DATES =
  /\b(?:\d{4}-\d{2}-\d{2}|(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}|\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4})\b/g;
const datesIn = (text: string) => new Set(text.match(DATES) ?? []);

async function render(cert: Certificate, dateFormat: DateFormat) {
  const document = certificateDocument(cert, { dateFormat });
  const html = buildCertificateHtml({
    document,
    logoSrc: null,
    signatureSrc: null,
    qrSvg: null,
    productName: "Credo",
  });
  const pdf = await buildCertificatePdf(cert, { signature: null, logo: null, dateFormat });
  return { document, html: flat(htmlText(html)), pdf: flat(await pdfText(pdf)) };
}

describe("one certificate design, HTML and PDF", () => {
  it.each(["month-day-year", "iso"] as const)(
    "prints a credit course's fields alike, dated %s",
    async (dateFormat) => {
      const { document, html, pdf } = await render(creditCertificate, dateFormat);
      // The first page: field of study and the credit claimed, never the spec's whole-hour
      // length, which an auditor would read against the credit.
      expect(document.fields).toEqual([
        { label: "Field of study", value: "Regulatory Ethics" },
        { label: "Credit", value: "1 CPE credit" },
      ]);
      for (const text of [html, pdf]) {
        expect(text).toContain("Field of study: Regulatory Ethics · Credit: 1 CPE credit");
        // Not the spec's category or length, and one provider number, once.
        expect(text).not.toContain("Mobile");
        expect(text).not.toContain("Course length");
        expect(text).not.toContain("Registry number");
        expect(text.match(/112233/g)).toHaveLength(1);
        // The signatory's whole title, never cut.
        expect(text).toContain(LONG_TITLE);
        expect(text).not.toContain("…");
        expect(text).toContain("Northwind Academy");
        expect(text).toContain("Certificate no. ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-2345-6789");
      }
      // The second page: the same labels and values, in the same order.
      expect(document.details?.map((f) => f.label)).toEqual([
        "Sponsor",
        "Sponsor address",
        "Delivery method",
        "Credit",
        "Field of study",
        "Accreditation",
        "Learner's licence",
        "Attested on",
        "Completed on",
        "Final exam",
        "Accreditation statement",
      ]);
      for (const field of document.details ?? []) {
        for (const text of [html, pdf]) {
          expect(text).toContain(field.label);
          expect(text).toContain(flat(field.value));
        }
      }
      // Read in order from the second page's heading on, each row after the one before.
      const inOrder = (text: string) => {
        let at = text.indexOf("Credit details") + "Credit details".length;
        for (const field of document.details ?? []) {
          at = text.indexOf(`${field.label} ${flat(field.value)}`, at);
          if (at < 0) return field.label;
        }
        return "in order";
      };
      expect(inOrder(html)).toBe("in order");
      expect(inOrder(pdf)).toBe("in order");
      // One date format on the whole certificate: completion, attestation and exam.
      const expected = new Set(
        [creditCertificate.completedAt, "2026-11-26T14:00:00.000Z", "2026-11-25T10:00:00.000Z"].map(
          (iso) => formatDocumentDate(iso, dateFormat),
        ),
      );
      expect(datesIn(html)).toEqual(expected);
      expect(datesIn(pdf)).toEqual(expected);
    },
  );

  it.each(["day-month-year"] as const)(
    "keeps the spec's certificate for a course without credit, dated %s",
    async (dateFormat) => {
      const cert = certificate({ courseCategory: "Database", durationHours: 6 });
      const { document, html, pdf } = await render(cert, dateFormat);
      const date = formatDocumentDate(cert.completedAt, dateFormat);
      expect(document.fields).toEqual([]);
      expect(document.details).toBeNull();
      for (const text of [html, pdf]) {
        // SPEC section 3: the student, the course, the completion date and the hours.
        expect(text).toContain("Ada Lovelace");
        expect(text).toContain("Ethics for CPAs");
        expect(text).toContain(`Database · 6 hours of study · completed on ${date}`);
        expect(text.toLowerCase()).toContain("northwind academy · authorized signature");
        expect(text).not.toContain("Credit");
        expect(datesIn(text)).toEqual(new Set([date]));
      }
    },
  );
});
