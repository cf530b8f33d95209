import {
  type Certificate,
  certificateDocument,
  certificateFileName,
  hoursText,
  withCreditText,
} from "@contract";
import { describe, expect, it } from "vitest";
import { buildCertificateHtml, escapeHtml } from "./certificate-html";
import { qrSvgMarkup } from "./certificate-qr";

const issued: Certificate = {
  id: "cert-1",
  enrollmentId: "enr_123",
  userId: "learner-1",
  courseId: "course-1",
  code: "7B6PXBDRRYXEE9Y2YH75BNYQ0VGKWVMZ",
  learnerName: "Ada Lovelace",
  courseTitle: "Intro to Databases",
  courseCategory: "Database",
  durationHours: 12,
  credits: [],
  creditHours: null,
  creditType: null,
  accreditingBody: null,
  providerNumber: null,
  issuerName: "Credo",
  issuerLogoUrl: null,
  examScore: null,
  examPassedAt: null,
  credit: null,
  completedAt: "2026-11-21T12:30:00.000Z",
  issuedAt: "2026-11-21T12:30:00.000Z",
  status: "valid",
  revokedAt: null,
  revokedReason: null,
  verifyUrl: "https://lms.example.com/verify/7B6PXBDRRYXEE9Y2YH75BNYQ0VGKWVMZ",
};

const build = (
  overrides: Partial<Certificate> = {},
  images: { logoSrc?: string; signatureSrc?: string; qrSvg?: string } = {},
) =>
  buildCertificateHtml({
    document: certificateDocument({ ...issued, ...overrides }, { dateFormat: "month-day-year" }),
    logoSrc: images.logoSrc ?? null,
    signatureSrc: images.signatureSrc ?? null,
    qrSvg: images.qrSvg ?? null,
    productName: "Credo",
  });

describe("certificateFileName", () => {
  it("replaces every run of whitespace in the course title with one dash (SPEC section 3)", () => {
    expect(certificateFileName("Intro to Databases", "html")).toBe(
      "Certificate-Intro-to-Databases.html",
    );
    expect(certificateFileName("React  &\tTypeScript\n101", "html")).toBe(
      "Certificate-React-&-TypeScript-101.html",
    );
  });
});

describe("buildCertificateHtml", () => {
  it("is a complete HTML document with the student, course, date and hours", () => {
    const html = build();
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<p class="name">Ada Lovelace</p>');
    expect(html).toContain('<p class="course">Intro to Databases</p>');
    expect(html).toContain(
      '<p class="meta">Database · 12 hours of study · completed on November 21, 2026</p>',
    );
    expect(html).toContain('<p class="issuer">Credo</p>');
    expect(html).toContain("Certificate of Completion");
  });

  it("is self-contained: inline styles and artwork, no scripts or outside resources", () => {
    const html = build();
    expect(html).not.toMatch(/<script|<link|<img|url\(|@import|(src|href)=/i);
    expect(html.match(/https?:\/\/\S+?(?=[<\s])/g)).toEqual([issued.verifyUrl]);
  });

  it("prints on one landscape page that fits A4 and Letter, and shrinks to fit a phone", () => {
    const html = build();
    expect(html).toContain("@page { size: landscape; margin: 0; }");
    const print = html.slice(html.indexOf("@media print"));
    expect(print).toContain("--u: calc(263mm / 842);");
    expect(html).toContain("width: calc(842 * var(--u));");
    expect(html).toContain("--u: min(263mm / 842, 100cqi / 842);");
    expect(html).toContain("one landscape A4 or Letter page");
  });

  it("escapes every interpolated text", () => {
    const html = build({
      learnerName: `<script>alert("x")</script> & Sons`,
      courseTitle: `Tom & Jerry's <b>Course</b>`,
      issuerName: `Acme "Learning" <Co>`,
    });
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>Course</b>");
    expect(html).not.toContain("<Co>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons");
    expect(html).toContain("Tom &amp; Jerry&#39;s &lt;b&gt;Course&lt;/b&gt;");
    expect(html).toContain("Acme &quot;Learning&quot; &lt;Co&gt;");
  });

  it("prints the code, the verification address and the QR code in the PDF's places", () => {
    const html = build({}, { qrSvg: '<svg class="qr"><path d="M0 0h1v1h-1z"/></svg>' });
    expect(html).toMatch(
      /Verify this certificate<\/p>\s*<p class="scan">Scan the code or visit:<\/p>\s*<p class="url">https:\/\/lms\.example\.com\/verify\/7B6PXBDRRYXEE9Y2YH75BNYQ0VGKWVMZ<\/p>\s*<svg class="qr">/,
    );
    expect(html).toContain(
      '<p class="number">Certificate no. 7B6P-XBDR-RYXE-E9Y2-YH75-BNYQ-0VGK-WVMZ</p>',
    );
  });

  it("prints the organisation's logo above its name", () => {
    const html = build(
      { issuerName: "Northwind CPE", issuerLogoUrl: "/api/organisation/logos/x" },
      { logoSrc: "data:image/png;base64,iVBORw0KGgo=" },
    );
    expect(html).toContain(
      '<img class="logo" src="data:image/png;base64,iVBORw0KGgo=" alt="Northwind CPE">',
    );
    expect(html).toContain('<p class="issuer">Northwind CPE</p>');
  });

  it("says a revoked certificate is revoked", () => {
    const html = build({
      status: "revoked",
      revokedAt: "2026-11-30T09:00:00.000Z",
      revokedReason: "Issued in error",
    });
    expect(html).toContain(
      "<b>Revoked on November 30, 2026</b><span>Reason: Issued in error</span>",
    );
  });

  it("builds the QR code's SVG without namespaces, keeping the address it encodes", () => {
    const svg = qrSvgMarkup(3, (r, c) => r === c, 'https://x.test/verify/A"B');
    expect(svg).toContain('data-verify-url="https://x.test/verify/A&quot;B"');
    expect(svg).toContain('d="M0 0h1v1h-1zM1 1h1v1h-1zM2 2h1v1h-1z"');
    expect(svg).not.toContain("xmlns");
  });
});

describe("credit-ready certificate", () => {
  const credit: Partial<Certificate> = {
    credits: [
      withCreditText({
        creditTypeId: "type-1",
        name: "CPE credits",
        amount: 1.5,
        accreditingBody: "NASBA",
        providerNumber: "112233",
        accreditationStatement: "Registered with NASBA.",
        designationStatement: "",
      }),
    ],
    credit: {
      creditsClaimed: 1.5,
      fieldsOfStudy: [{ field: "Auditing", credits: 2 }],
      sponsorName: "Northwind <CPE>",
      sponsorAddress: "1 Main St\nSpringfield",
      deliveryMethod: "QAS Self-Study",
      accreditationStatement: "Registered with NASBA.",
      registryNumber: "",
      officialName: "Dana Lee",
      officialTitle: "Director of Continuing Education and Professional Development",
      signatureId: "sig_1",
      licence: { licenceType: "CPA", licenceNumber: "A-1", licenceState: "Illinois", npn: "" },
      attestedAt: "2026-11-20T10:00:00.000Z",
    },
  };

  it("prints the field of study and the credit, never the category or the whole-hour length", () => {
    const html = build(credit, { signatureSrc: "data:image/png;base64,iVBORw0KGgo=" });
    expect(html).toContain(
      '<p class="meta fields"><span class="field"><span class="field-label">Field of study:</span> Auditing</span> &middot; <span class="field"><span class="field-label">Credit:</span> 1.5 CPE credits</span></p>',
    );
    expect(html).not.toContain("Database ·");
    expect(html).not.toContain("Course length");
    expect(html).toContain("two landscape A4 or Letter pages");
    expect(html).toContain("<dt>Sponsor</dt><dd>Northwind &lt;CPE&gt;</dd>");
    expect(html).toContain("<dt>Sponsor address</dt><dd>1 Main St, Springfield</dd>");
    // Each field's credits scaled to the claim: 1.5 of the 2 designated.
    expect(html).toContain("<dt>Field of study</dt><dd>Auditing: 1.5</dd>");
    expect(html).toContain(
      "<dt>Accreditation</dt><dd>Accredited by NASBA · Provider no. 112233</dd>",
    );
    expect(html).toContain("<dt>Learner&#39;s licence</dt><dd>CPA A-1 (Illinois)</dd>");
    expect(html).toContain("<dt>Attested on</dt><dd>November 20, 2026</dd>");
    expect(html).not.toContain("Registry number");
    expect(html).toContain(
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="Signature of Dana Lee">',
    );
    // The signatory's name and title, whole, in a block that wraps.
    expect(html).toContain(
      '<span class="signatory"><span class="who">Dana Lee</span><span class="role">Director of Continuing Education and Professional Development</span></span>',
    );
    expect(html).not.toMatch(/\.signatory[^}]*(nowrap|ellipsis)/);
    expect(html).not.toContain("Authorized signature");
  });

  it("keeps the plain layout for a certificate without credit", () => {
    const html = build();
    expect(html).toContain('<article class="sheet" aria-label');
    expect(html).not.toContain('aria-label="Credit details"');
    expect(html).toContain("Credo &middot; Authorized signature");
  });
});

describe("helpers", () => {
  it("escapeHtml escapes the five special characters", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });

  it("formats hours", () => {
    expect(hoursText(1)).toBe("1 hour");
    expect(hoursText(40)).toBe("40 hours");
  });
});
