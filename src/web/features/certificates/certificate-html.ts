/**
 * The completion certificate of SPEC section 3, built in the browser from a completed
 * enrollment: one self-contained HTML file (styles and artwork inline, no scripts, fonts or
 * images from elsewhere) that opens anywhere and prints on one landscape A4 or Letter page
 * (a credit-ready certificate adds a second with the credit details, as its PDF does).
 * Kept free of the DOM so it runs, and is tested, in plain Node.
 *
 * It has the design of the PDF certificate (certificate-pdf.ts on the server): the same
 * layout, text order, colours and type, drawn on the PDF's 842 x 595 point page. Every length
 * is a number of those points times `--u`, so the sheet keeps its proportions at any size:
 * 263 mm wide in print, and no wider than the window on a phone.
 */

import { hoursText } from "@contract";
import type { CreditClaimFacts } from "./certificate-credit";

export type CertificateData = {
  studentName: string;
  courseTitle: string;
  /** The completion time as an ISO string. */
  completedAt: string;
  /** The course duration in whole hours. */
  durationHours: number;
  productName: string;
  /** Printed as the certificate number, so an administrator can look the record up. */
  certificateId?: string;
  category?: string;
  /** Credit lines as issued ("2.5 CME credit hours", "Accredited by …"). */
  credit?: string[];
  /**
   * The public verification code, its address and a QR code of the address as
   * inline SVG markup (certificate-qr.ts), so the file still needs nothing from elsewhere.
   */
  verification?: { code: string; url: string; qrSvg: string };
  /**
   * What an accredited course's certificate adds: the sponsor, the delivery method, the credit
   * claimed by field of study, the accreditation statement, the learner's licence, the date of
   * the attestation, and the responsible official with their signature. The signature is
   * given as a data URL so the file stays whole offline.
   */
  claim?: { facts: CreditClaimFacts; signatureSrc: string | null };
};

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * "November 21, 2026". `timeZone` defaults to the viewer's own zone: the learner finished
 * on the day their own calendar showed.
 */
export function formatCompletionDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat("en-US", {
    dateStyle: "long",
    ...(timeZone ? { timeZone } : {}),
  }).format(date);
}

/** A length of `points` on the PDF's 842 x 595 page, in the sheet's own unit. */
const u = (points: number) => `calc(${points} * var(--u))`;

/** The PDF's colours (certificate-pdf.ts). */
const NAVY = "#302e82";
const INK = "#1f1c2b";
const MUTED = "#5c5973";
const GOLD = "#b08c3d";
const PAPER = "#fffdf8";
/** The gold of small text, darker than the PDF's so it reads on screen (WCAG AA). */
const GOLD_TEXT = "#8a6a22";

/** The PDF embeds Tinos and Arimo; these stacks reach them or their metric twins. */
const SERIF = `Tinos, "Liberation Serif", "Times New Roman", Times, serif`;
const SANS = `Arimo, "Liberation Sans", Arial, Helvetica, sans-serif`;
const MONO = `Cousine, "Liberation Mono", "Courier New", Courier, monospace`;

/** The certificate as a complete HTML document. */
export function buildCertificateHtml(data: CertificateData, options: { timeZone?: string } = {}) {
  const name = escapeHtml(data.studentName.trim());
  const course = escapeHtml(data.courseTitle.trim());
  const product = escapeHtml(data.productName.trim() || "Credo");
  const date = escapeHtml(formatCompletionDate(data.completedAt, options.timeZone));
  const hours = escapeHtml(hoursText(data.durationHours));
  const category = data.category ? escapeHtml(data.category) : "";
  const number = data.certificateId ? escapeHtml(data.certificateId) : "";
  const verification = data.verification;
  const claim = data.claim;
  // As on the PDF's first page: the credit claimed, then how it is accredited.
  const credit = [claim?.facts.credits, ...(data.credit ?? [])]
    .filter((line): line is string => Boolean(line))
    .map(escapeHtml)
    .join(" &middot; ");
  const code = verification ? escapeHtml(verification.code) : number;
  const title = `Certificate of Completion: ${course} · ${name}`;
  const pages = claim ? "two landscape A4 or Letter pages" : "one landscape A4 or Letter page";

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${product}">
<title>${title}</title>
<style>
  @page { size: landscape; margin: 0; }
  *, *::before, *::after { box-sizing: border-box; }
  html, body { margin: 0; padding: 0; }
  body {
    background: #e9e7f3;
    color: ${INK};
    font-family: ${SANS};
    -webkit-print-color-adjust: exact;
    print-color-adjust: exact;
  }
  .screen-note {
    margin: 24px auto 0;
    max-width: 980px;
    padding: 0 16px;
    font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    color: #4b4860;
    text-align: center;
  }
  /* The sheet's width follows the stage's (a container), never more than 263 mm. */
  .stage { padding: 24px 16px 48px; container-type: inline-size; }
  .sheet {
    --u: calc(263mm / 842);
    position: relative;
    width: ${u(842)};
    height: ${u(595)};
    margin: 0 auto;
    background: ${PAPER};
    box-shadow: 0 20px 60px rgba(30, 27, 75, 0.18), 0 2px 6px rgba(30, 27, 75, 0.08);
    overflow: hidden;
  }
  @supports (width: 1cqi) {
    .sheet { --u: min(263mm / 842, 100cqi / 842); }
  }
  .sheet + .sheet { margin-top: 24px; }
  :where(.sheet) :where(p, h1, h2, dl, dd) { margin: 0; }
  /* The two frames, each centred on the PDF's stroke. */
  .frame { position: absolute; pointer-events: none; }
  .frame.outer { inset: ${u(20 - 4.5 / 2)}; border: ${u(4.5)} solid ${NAVY}; }
  .frame.inner { inset: ${u(29 - 1.2 / 2)}; border: ${u(1.2)} solid ${GOLD}; }
  .main {
    position: absolute;
    top: ${u(62.1)};
    left: ${u(100)};
    right: ${u(100)};
    display: flex;
    flex-direction: column;
    align-items: center;
    text-align: center;
  }
  .main > * { line-height: 1; max-width: 100%; overflow-wrap: anywhere; }
  .issuer { font: 700 ${u(13)}/1 ${SANS}; color: ${NAVY}; }
  .eyebrow {
    margin-top: ${u(21.5)};
    font: 700 ${u(10)}/1 ${SANS};
    letter-spacing: 0.62em;
    margin-right: -0.62em;
    text-transform: uppercase;
    color: ${GOLD_TEXT};
  }
  h1 { margin-top: ${u(6.2)}; font: 400 ${u(36)}/1 ${SERIF}; color: ${NAVY}; }
  .rule { margin-top: ${u(7.7)}; width: ${u(220)}; height: ${u(1)}; background: ${GOLD}; }
  .certify, .completed { font: italic 400 ${u(13)}/1 ${SERIF}; color: ${MUTED}; }
  .certify { margin-top: ${u(16.6)}; }
  .name {
    margin-top: ${u(7)};
    max-width: ${u(620)};
    font: italic 400 ${u(32)}/${u(36)} ${SERIF};
    color: ${NAVY};
  }
  .completed { margin-top: ${u(22)}; }
  .course {
    margin-top: ${u(9.8)};
    max-width: ${u(640)};
    font: 700 ${u(21)}/${u(26)} ${SANS};
    color: ${NAVY};
  }
  .meta { margin-top: ${u(10.1)}; font: 400 ${u(10.5)}/${u(17)} ${SANS}; color: ${MUTED}; }
  .meta b { font-weight: 400; }
  .credit { max-width: ${u(560)}; font: 700 ${u(10.5)}/${u(17)} ${SANS}; color: ${INK}; }
  /* Footer: date and signature lines on the left, verification with the QR code on the right. */
  .sign { position: absolute; top: ${u(441)}; width: ${u(210)}; height: ${u(72)}; text-align: center; }
  .sign.date { left: ${u(80)}; }
  .sign.official { left: ${u(320)}; }
  .sign .value {
    position: absolute;
    left: 0;
    right: 0;
    top: ${u(480.1 - 441)};
    font: 400 ${u(13)}/1 ${SERIF};
    color: ${NAVY};
  }
  .sign .signature {
    position: absolute;
    left: ${u(10)};
    right: ${u(10)};
    top: ${u(454 - 441)};
    height: ${u(40)};
    display: flex;
    align-items: flex-end;
    justify-content: center;
  }
  .sign .signature img { max-width: 100%; max-height: 100%; object-fit: contain; mix-blend-mode: multiply; }
  .sign .line { position: absolute; left: 0; right: 0; top: ${u(497 - 0.4 - 441)}; height: ${u(0.8)}; background: ${INK}; }
  .sign .label {
    position: absolute;
    left: ${u(-10)};
    right: ${u(-10)};
    top: ${u(502.7 - 441)};
    font: 400 ${u(7.5)}/1 ${SANS};
    text-transform: uppercase;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
    color: ${MUTED};
  }
  .verify { position: absolute; left: ${u(560)}; top: ${u(451)}; width: ${u(222)}; height: ${u(92)}; }
  .verify .title { position: absolute; top: ${u(462.3 - 451)}; font: 700 ${u(8)}/1 ${SANS}; color: ${INK}; }
  .verify .scan { position: absolute; top: ${u(474.7 - 451)}; font: 400 ${u(7.5)}/1 ${SANS}; color: ${MUTED}; }
  /* Cut by characters, not words, as on the PDF: a space would break the typed address. */
  .verify .url {
    position: absolute;
    top: ${u(487.5 - 451)};
    width: ${u(125)};
    font: 400 ${u(6.5)}/${u(9)} ${MONO};
    word-break: break-all;
    color: ${NAVY};
  }
  .verify svg { position: absolute; left: ${u(130)}; top: 0; width: ${u(92)}; height: ${u(92)}; display: block; }
  .number {
    position: absolute;
    left: ${u(60)};
    right: ${u(60)};
    top: ${u(550.7)};
    text-align: center;
    font: 400 ${u(7.5)}/1 ${MONO};
    color: ${MUTED};
  }
  /* The second page of a credit-ready certificate, as the PDF's "Credit details". */
  .details .content {
    position: absolute;
    inset: ${u(52)} ${u(60)} ${u(40)};
    display: flex;
    flex-direction: column;
  }
  .details h2 { font: 400 ${u(22)}/1 ${SERIF}; color: ${NAVY}; }
  .details .about { margin-top: ${u(8)}; font: 400 ${u(10)}/1 ${SANS}; color: ${MUTED}; }
  .claim { margin-top: ${u(20)}; display: grid; gap: ${u(6)}; }
  .claim div { display: grid; grid-template-columns: ${u(190)} 1fr; align-items: baseline; }
  .claim dt { font: 700 ${u(7.5)}/${u(14)} ${SANS}; text-transform: uppercase; color: ${MUTED}; }
  .claim dd {
    font: 400 ${u(10)}/${u(14)} ${SANS};
    color: ${INK};
    white-space: pre-line;
    overflow-wrap: anywhere;
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 8;
    overflow: hidden;
  }
  .details .closing { margin-top: auto; padding-top: ${u(14)}; width: ${u(220)}; }
  .details .signature { height: ${u(50)}; display: flex; align-items: flex-end; }
  .details .signature img { max-width: ${u(200)}; max-height: 100%; object-fit: contain; mix-blend-mode: multiply; }
  .details .line { margin-top: ${u(4)}; height: ${u(0.8)}; background: ${INK}; }
  .details .official { margin-top: ${u(6)}; font: 700 ${u(10)}/${u(12)} ${SANS}; color: ${INK}; }
  .details .official-title { font: 400 ${u(9)}/${u(12)} ${SANS}; color: ${MUTED}; }
  .details .number { left: auto; right: ${u(60)}; width: ${u(240)}; text-align: left; }
  @media print {
    html, body { background: #ffffff; }
    .screen-note { display: none; }
    .stage { padding: 0; }
    .sheet {
      --u: calc(263mm / 842);
      /* Centred on the landscape page: A4 (297 x 210 mm) or Letter (279.4 x 215.9 mm). */
      margin: calc((100vh - ${u(595)}) / 2) auto 0;
      background: #ffffff;
      box-shadow: none;
      break-inside: avoid;
      page-break-inside: avoid;
    }
    .sheet + .sheet { break-before: page; page-break-before: always; }
  }
</style>
</head>
<body>
<p class="screen-note">To keep a PDF copy, print this page (Ctrl+P or Cmd+P) and choose Save as PDF. It fits ${pages}.</p>
<main class="stage">
<article class="sheet${claim ? " has-credit" : ""}" aria-label="Certificate of Completion">
  <div class="frame outer"></div><div class="frame inner"></div>
  <div class="main">
    <p class="issuer">${product}</p>
    <p class="eyebrow">Certificate</p>
    <h1>of Completion</h1>
    <div class="rule" aria-hidden="true"></div>
    <p class="certify">This is to certify that</p>
    <p class="name">${name}</p>
    <p class="completed">has successfully completed the course</p>
    <p class="course">${course}</p>
    <p class="meta">${category ? `${category} &middot; ` : ""}<b>${hours}</b> of study &middot; completed on <b>${date}</b></p>
    ${credit ? `<p class="credit">${credit}</p>` : ""}
  </div>
  <div class="sign date">
    <span class="value">${date}</span>
    <span class="line"></span>
    <span class="label">Date of completion</span>
  </div>
  ${officialHtml(product, claim)}
  ${
    verification
      ? `<div class="verify">
    <p class="title">Verify this certificate</p>
    <p class="scan">Scan the code or visit:</p>
    <p class="url">${escapeHtml(verification.url)}</p>
    ${verification.qrSvg}
  </div>`
      : ""
  }
  ${code ? `<p class="number">Certificate no. ${code}</p>` : ""}
</article>
${claim ? detailsHtml({ name, course, date, code, facts: claim.facts, signatureSrc: claim.signatureSrc }, options.timeZone) : ""}
</main>
</body>
</html>
`;
}

/**
 * The signature line of the first page: the responsible official's signature, name and title
 * on a credit-ready certificate, else the issuer's blank line.
 */
function officialHtml(product: string, claim: CertificateData["claim"]): string {
  const facts = claim?.facts;
  if (!facts?.officialName) {
    return `<div class="sign official">
    <span class="line"></span>
    <span class="label">${product} &middot; Authorized signature</span>
  </div>`;
  }
  const name = escapeHtml(facts.officialName);
  const label = [facts.officialName, facts.officialTitle]
    .filter((part): part is string => Boolean(part))
    .map(escapeHtml)
    .join(", ");
  const image = claim?.signatureSrc
    ? `<img src="${escapeHtml(claim.signatureSrc)}" alt="Signature of ${name}">`
    : "";
  return `<div class="sign official">
    <span class="signature">${image}</span>
    <span class="line"></span>
    <span class="label">${label}</span>
  </div>`;
}

/** The second page of a credit-ready certificate: the claim's facts, then the official. */
function detailsHtml(
  page: {
    name: string;
    course: string;
    date: string;
    code: string;
    facts: CreditClaimFacts;
    signatureSrc: string | null;
  },
  timeZone?: string,
): string {
  const { facts } = page;
  const attested = facts.attestedAt ? formatCompletionDate(facts.attestedAt, timeZone) : "";
  const items: [string, string | null][] = [
    ["Sponsor", facts.sponsor],
    ["Sponsor address", facts.sponsorAddress],
    ["Delivery method", facts.deliveryMethod],
    ["Credits awarded", facts.credits],
    ["Fields of study", facts.fields],
    ["Registry number", facts.registryNumber],
    ["Learner's licence", facts.licence],
    ["Attested on", attested || null],
    ["Accreditation", facts.accreditationStatement],
  ];
  const rows = items
    .filter(([, value]) => value)
    .map(
      ([label, value]) =>
        `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value ?? "")}</dd></div>`,
    )
    .join("");
  const official = facts.officialName ? escapeHtml(facts.officialName) : "";
  const image =
    page.signatureSrc && official
      ? `<img src="${escapeHtml(page.signatureSrc)}" alt="Signature of ${official}">`
      : "";
  return `<article class="sheet details" aria-label="Credit details">
  <div class="content">
    <h2>Credit details</h2>
    <p class="about">${page.name} &middot; ${page.course} &middot; completed on ${page.date}</p>
    ${rows ? `<dl class="claim">${rows}</dl>` : ""}
    <div class="closing">
      <div class="signature">${image}</div>
      <div class="line"></div>
      ${official ? `<p class="official">${official}</p>` : ""}
      ${facts.officialTitle ? `<p class="official-title">${escapeHtml(facts.officialTitle)}</p>` : ""}
    </div>
  </div>
  ${page.code ? `<p class="number">Certificate no. ${page.code}</p>` : ""}
</article>`;
}
