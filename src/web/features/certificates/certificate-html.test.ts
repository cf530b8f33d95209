import { certificateFileName, hoursText } from "@contract";
import { describe, expect, it } from "vitest";
import {
  buildCertificateHtml,
  type CertificateData,
  escapeHtml,
  formatCompletionDate,
} from "./certificate-html";
import { qrSvgMarkup } from "./certificate-qr";

const base: CertificateData = {
  studentName: "Ada Lovelace",
  courseTitle: "Intro to Databases",
  completedAt: "2026-11-21T12:30:00.000Z",
  durationHours: 12,
  productName: "Credo",
  certificateId: "enr_123",
  category: "Database",
};

const build = (data: Partial<CertificateData> = {}) =>
  buildCertificateHtml({ ...base, ...data }, { timeZone: "UTC" });

describe("certificateFileName", () => {
  it("replaces every run of whitespace in the course title with one dash (SPEC section 3)", () => {
    expect(certificateFileName("Intro to Databases", "html")).toBe(
      "Certificate-Intro-to-Databases.html",
    );
    expect(certificateFileName("React  &\tTypeScript\n101", "html")).toBe(
      "Certificate-React-&-TypeScript-101.html",
    );
    expect(certificateFileName("Single", "html")).toBe("Certificate-Single.html");
  });
});

describe("buildCertificateHtml", () => {
  it("is a complete HTML document with the student, course, date and hours", () => {
    const html = build();
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("</html>");
    expect(html).toContain('<p class="name">Ada Lovelace</p>');
    expect(html).toContain('<p class="course">Intro to Databases</p>');
    expect(html).toContain("November 21, 2026");
    expect(html).toContain("12 hours");
    expect(html).toContain("Certificate no. enr_123");
    expect(html).toContain("Database");
    expect(html).toContain("Credo");
    expect(html).toContain("Certificate of Completion");
  });

  it("is self-contained: inline styles and artwork, no scripts or outside resources", () => {
    const html = build();
    expect(html).toContain("<style>");
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/(src|href)=/i);
    expect(html).not.toMatch(/https?:\/\//i);
  });

  it("prints on one landscape page that fits A4 and Letter, and shrinks to fit a phone", () => {
    const html = build();
    expect(html).toContain("@page { size: landscape; margin: 0; }");
    const print = html.slice(html.indexOf("@media print"));
    // The PDF's 842 x 595 point page, one point being `--u`: 263 mm wide in print, which
    // fits inside landscape A4 (297 x 210 mm) and Letter (279.4 x 215.9 mm).
    expect(print).toContain("--u: calc(263mm / 842);");
    expect(html).toContain("width: calc(842 * var(--u));");
    expect(html).toContain("height: calc(595 * var(--u));");
    expect((263 * 595) / 842).toBeLessThan(210);
    // On screen, never wider than the stage it sits in: no sideways scrolling on a phone.
    expect(html).toContain(".stage { padding: 24px 16px 48px; container-type: inline-size; }");
    expect(html).toContain("--u: min(263mm / 842, 100cqi / 842);");
    expect(html).not.toContain("overflow-x");
  });

  it("escapes every interpolated text", () => {
    const html = build({
      studentName: `<script>alert("x")</script> & Sons`,
      courseTitle: `Tom & Jerry's <b>Course</b>`,
      productName: `Acme "Learning" <Co>`,
      certificateId: "<id>",
    });
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>Course</b>");
    expect(html).not.toContain("<Co>");
    expect(html).not.toContain("<id>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons");
    expect(html).toContain("Tom &amp; Jerry&#39;s &lt;b&gt;Course&lt;/b&gt;");
    expect(html).toContain("Acme &quot;Learning&quot; &lt;Co&gt;");
    expect(html).toContain("Certificate no. &lt;id&gt;");
  });

  it("leaves out the optional number and category when not given", () => {
    const html = build({ certificateId: undefined, category: undefined });
    expect(html).not.toContain("Certificate no.");
    expect(html).toContain("<b>12 hours</b> of study");
  });

  it("says '1 hour' for a one-hour course and falls back to the default product name", () => {
    const html = build({ durationHours: 1, productName: "  " });
    expect(html).toContain("1 hour");
    expect(html).not.toContain("1 hours");
    expect(html).toContain('<p class="issuer">Credo</p>');
  });
});

describe("verification", () => {
  const url = "https://lms.example.com/verify/7B6PXBDRRYXEE9Y2YH75BNYQ0VGKWVMZ";
  const withVerification = (qr = '<svg class="qr"><path d="M0 0h1v1h-1z"/></svg>') =>
    build({
      credit: ["2.5 CME credit hours", "Accredited by State Board"],
      verification: { code: "7B6P-XBDR", url, qrSvg: qr },
    });

  it("prints the code, the verification address, the credit and the QR code", () => {
    const html = withVerification();
    // In the PDF's order and places: the address beside the QR code, the number below.
    expect(html).toMatch(
      /Verify this certificate<\/p>\s*<p class="scan">Scan the code or visit:<\/p>\s*<p class="url">https:\/\/lms\.example\.com\/verify\/7B6PXBDRRYXEE9Y2YH75BNYQ0VGKWVMZ<\/p>\s*<svg class="qr">/,
    );
    expect(html).toContain('<p class="number">Certificate no. 7B6P-XBDR</p>');
    expect(html).toContain(
      '<p class="credit">2.5 CME credit hours &middot; Accredited by State Board</p>',
    );
  });

  it("stays self-contained: the address is text, never a link or a resource", () => {
    const html = withVerification();
    expect(html).not.toMatch(/<script|<link|<img|url\(|@import|(src|href)=/i);
    expect(html.match(/https?:\/\/\S+?(?=[<\s])/g)).toEqual([url]);
  });

  it("builds the QR code's SVG without namespaces, keeping the address it encodes", () => {
    const svg = qrSvgMarkup(3, (r, c) => r === c, 'https://x.test/verify/A"B');
    expect(svg).toContain('data-verify-url="https://x.test/verify/A&quot;B"');
    expect(svg).toContain('d="M0 0h1v1h-1zM1 1h1v1h-1zM2 2h1v1h-1z"');
    expect(svg).toContain('viewBox="-2 -2 7 7"');
    expect(svg).not.toContain("xmlns");
  });
});

describe("credit-ready certificate", () => {
  const claim: NonNullable<CertificateData["claim"]> = {
    facts: {
      credits: "1.5 CPE credits claimed (2 designated)",
      fields: "Auditing: 1.5",
      sponsor: "Northwind <CPE>",
      sponsorAddress: "1 Main St, Springfield",
      deliveryMethod: "QAS Self-Study",
      registryNumber: "112233",
      licence: "CPA A-1 (Illinois)",
      attestedAt: "2026-11-20T10:00:00.000Z",
      accreditationStatement: "Registered with NASBA.",
      officialName: "Dana Lee",
      officialTitle: "Director of Education",
      signatureId: "sig_1",
    },
    signatureSrc: "data:image/png;base64,iVBORw0KGgo=",
  };

  it("prints the sponsor, the claim, the licence, the attestation and the signed official", () => {
    const html = build({ claim, credit: ["Accredited by State Board"] });
    expect(html).toContain('class="sheet has-credit"');
    // The first page names the credit claimed, as the PDF's does; the second the details.
    expect(html).toContain(
      '<p class="credit">1.5 CPE credits claimed (2 designated) &middot; Accredited by State Board</p>',
    );
    expect(html).toContain('<article class="sheet details" aria-label="Credit details">');
    expect(html).toContain("two landscape A4 or Letter pages");
    expect(html).toContain(
      "<dt>Credits awarded</dt><dd>1.5 CPE credits claimed (2 designated)</dd>",
    );
    expect(html).toContain("<dt>Sponsor</dt><dd>Northwind &lt;CPE&gt;</dd>");
    expect(html).toContain("<dt>Sponsor address</dt><dd>1 Main St, Springfield</dd>");
    expect(html).toContain("<dd>QAS Self-Study</dd>");
    expect(html).toContain("<dd>Auditing: 1.5</dd>");
    expect(html).toContain("<dd>112233</dd>");
    expect(html).toContain("<dd>CPA A-1 (Illinois)</dd>");
    expect(html).toContain("<dt>Attested on</dt><dd>November 20, 2026</dd>");
    expect(html).toContain("<dt>Accreditation</dt><dd>Registered with NASBA.</dd>");
    expect(html).toContain(
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="Signature of Dana Lee">',
    );
    expect(html).toContain('<span class="label">Dana Lee, Director of Education</span>');
    expect(html).not.toContain("Authorized signature");
  });

  it("keeps the plain layout for a certificate without credit settings", () => {
    const html = build();
    expect(html).toContain('<article class="sheet" aria-label');
    expect(html).not.toContain('class="claim"');
    expect(html).not.toContain('aria-label="Credit details"');
    expect(html).toContain("one landscape A4 or Letter page");
    expect(html).toContain("Authorized signature");
  });
});

describe("helpers", () => {
  it("escapeHtml escapes the five special characters", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
    expect(escapeHtml("plain text")).toBe("plain text");
  });

  it("formats the completion date in the given time zone", () => {
    expect(formatCompletionDate("2026-11-21T23:30:00.000Z", "UTC")).toBe("November 21, 2026");
    expect(formatCompletionDate("2026-11-21T23:30:00.000Z", "Asia/Tokyo")).toBe(
      "November 22, 2026",
    );
    expect(formatCompletionDate("not a date", "UTC")).toBe("");
  });

  it("formats hours", () => {
    expect(hoursText(1)).toBe("1 hour");
    expect(hoursText(40)).toBe("40 hours");
  });
});
