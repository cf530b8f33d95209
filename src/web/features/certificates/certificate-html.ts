/**
 * The completion certificate of SPEC section 3, built in the browser from a completed
 * enrollment: one self-contained HTML file (styles and artwork inline, no scripts, fonts or
 * images from elsewhere) that opens anywhere and prints on one landscape A4 or Letter page.
 * Kept free of the DOM so it runs, and is tested, in plain Node.
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

/** The certificate as a complete HTML document. */
export function buildCertificateHtml(data: CertificateData, options: { timeZone?: string } = {}) {
  const name = escapeHtml(data.studentName.trim());
  const course = escapeHtml(data.courseTitle.trim());
  const product = escapeHtml(data.productName.trim() || "Credo");
  const date = escapeHtml(formatCompletionDate(data.completedAt, options.timeZone));
  const hours = escapeHtml(hoursText(data.durationHours));
  const category = data.category ? escapeHtml(data.category) : "";
  const number = data.certificateId ? escapeHtml(data.certificateId) : "";
  const credit = (data.credit ?? []).map(escapeHtml).join(" &middot; ");
  const verification = data.verification;
  const claim = data.claim;
  const title = `Certificate of Completion: ${course} · ${name}`;

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
    color: #1f1d2b;
    font-family: "Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "Times New Roman", serif;
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
  .stage { padding: 24px 16px 48px; }
  /* 263 x 188 mm fits inside both landscape A4 (297 x 210) and Letter (279 x 216). */
  .sheet {
    position: relative;
    width: 263mm;
    height: 188mm;
    margin: 0 auto;
    background: #fffdf8;
    box-shadow: 0 20px 60px rgba(30, 27, 75, 0.18), 0 2px 6px rgba(30, 27, 75, 0.08);
    overflow: hidden;
  }
  .frame {
    position: absolute;
    inset: 7mm;
    border: 1.6mm solid #312e81;
    padding: 1.6mm;
  }
  .frame-inner {
    position: relative;
    height: 100%;
    border: 0.5mm solid #b08d3e;
    background:
      radial-gradient(ellipse at 50% 0%, rgba(176, 141, 62, 0.10), transparent 55%),
      radial-gradient(ellipse at 50% 100%, rgba(49, 46, 129, 0.07), transparent 55%);
  }
  .corner { position: absolute; width: 22mm; height: 22mm; }
  .corner.tl { top: 2.5mm; left: 2.5mm; }
  .corner.tr { top: 2.5mm; right: 2.5mm; transform: scaleX(-1); }
  .corner.bl { bottom: 2.5mm; left: 2.5mm; transform: scaleY(-1); }
  .corner.br { bottom: 2.5mm; right: 2.5mm; transform: scale(-1, -1); }
  .content {
    position: absolute;
    inset: 0;
    display: flex;
    flex-direction: column;
    align-items: center;
    text-align: center;
    padding: 13mm 26mm 13mm;
  }
  .brand {
    display: flex;
    align-items: center;
    gap: 3mm;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    font-size: 4mm;
    font-weight: 600;
    letter-spacing: 0.02em;
    color: #312e81;
  }
  .brand svg { width: 8mm; height: 8mm; }
  .eyebrow {
    margin: 7mm 0 0;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    font-size: 3.2mm;
    font-weight: 600;
    letter-spacing: 0.42em;
    text-transform: uppercase;
    color: #8a6a22;
  }
  h1 {
    margin: 2mm 0 0;
    font-size: 13mm;
    font-weight: 400;
    letter-spacing: 0.01em;
    line-height: 1.05;
    color: #1e1b4b;
  }
  .rule {
    display: flex;
    align-items: center;
    gap: 3mm;
    width: 80mm;
    margin: 5mm 0 0;
    color: #b08d3e;
  }
  .rule::before, .rule::after { content: ""; flex: 1; height: 0.35mm; background: currentColor; }
  .rule span { width: 2.2mm; height: 2.2mm; transform: rotate(45deg); background: currentColor; }
  .certify { margin: 6mm 0 0; font-size: 4.4mm; font-style: italic; color: #4b4860; }
  .name {
    margin: 3mm 0 0;
    max-width: 100%;
    padding: 0 6mm 2.2mm;
    border-bottom: 0.35mm solid #d9cfb6;
    font-size: 11.5mm;
    font-style: italic;
    line-height: 1.15;
    color: #1e1b4b;
    overflow-wrap: anywhere;
  }
  .completed { margin: 5.5mm 0 0; font-size: 4.4mm; font-style: italic; color: #4b4860; }
  .course {
    margin: 2.5mm 0 0;
    max-width: 100%;
    font-size: 7.5mm;
    font-weight: 600;
    line-height: 1.2;
    color: #312e81;
    overflow-wrap: anywhere;
  }
  .meta {
    margin: 3mm 0 0;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    font-size: 3.3mm;
    letter-spacing: 0.04em;
    color: #5b5872;
  }
  .meta b { font-weight: 600; color: #1f1d2b; }
  .footer {
    margin-top: auto;
    width: 100%;
    display: grid;
    grid-template-columns: 1fr 34mm 1fr;
    align-items: end;
    gap: 10mm;
  }
  .sign { display: grid; gap: 1.6mm; text-align: center; }
  .sign .value { min-height: 6mm; font-size: 5mm; color: #1e1b4b; }
  .sign .line { height: 0.35mm; background: #1f1d2b; opacity: 0.7; }
  .sign .label {
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    font-size: 2.9mm;
    letter-spacing: 0.18em;
    text-transform: uppercase;
    color: #5b5872;
  }
  .seal { width: 34mm; height: 34mm; justify-self: center; }
  /* An accredited course prints more: the sheet grows with it rather than cut it off. */
  .sheet.has-credit { height: auto; min-height: 188mm; }
  .has-credit .frame { position: relative; inset: auto; margin: 7mm; min-height: 174mm; }
  .has-credit .frame-inner { height: auto; min-height: 167.6mm; }
  .has-credit .content { position: relative; inset: auto; min-height: 167.6mm; padding: 9mm 24mm 11mm; }
  .has-credit .eyebrow { margin-top: 4mm; }
  .has-credit h1 { font-size: 10mm; }
  .has-credit .rule { margin-top: 3mm; }
  .has-credit .certify { margin-top: 3.5mm; font-size: 4mm; }
  .has-credit .name { margin-top: 1.5mm; font-size: 9.5mm; }
  .has-credit .completed { margin-top: 3mm; font-size: 4mm; }
  .has-credit .course { margin-top: 1.5mm; font-size: 6.5mm; }
  .has-credit .footer { grid-template-columns: 1fr 24mm 1fr; margin-top: 5mm; }
  .has-credit .seal { width: 24mm; height: 24mm; }
  .has-credit .sign .value { font-size: 4.2mm; }
  .claim {
    display: grid;
    grid-template-columns: 1fr 1fr;
    gap: 1.4mm 8mm;
    width: 100%;
    margin: 4mm 0 0;
    padding: 3mm 0 0;
    border-top: 0.3mm solid #e4dcc6;
    text-align: left;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    font-size: 2.8mm;
    line-height: 1.35;
    color: #1f1d2b;
  }
  .claim div { display: grid; grid-template-columns: 30mm 1fr; gap: 2mm; }
  .claim dt { color: #5b5872; letter-spacing: 0.02em; }
  .claim dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
  .claim .wide { grid-column: 1 / -1; }
  .statement {
    margin: 2.5mm 0 0;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    font-size: 2.5mm;
    line-height: 1.4;
    color: #4b4860;
    white-space: pre-line;
    overflow-wrap: anywhere;
  }
  .sign .signature { display: flex; align-items: flex-end; justify-content: center; min-height: 12mm; }
  .sign .signature img { max-height: 12mm; max-width: 60mm; object-fit: contain; mix-blend-mode: multiply; }
  .credit {
    margin: 1.6mm 0 0;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    font-size: 3.2mm;
    font-weight: 600;
    letter-spacing: 0.03em;
    color: #1f1d2b;
  }
  .verify {
    position: absolute;
    top: 4mm;
    right: 4mm;
    display: grid;
    justify-items: center;
    gap: 0.8mm;
    width: 25mm;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    font-size: 2.2mm;
    letter-spacing: 0.08em;
    text-transform: uppercase;
    color: #5b5872;
  }
  .verify svg { width: 22mm; height: 22mm; display: block; }
  .number {
    position: absolute;
    bottom: 3.2mm;
    /* Clear of the corner ornaments, which a long verification address would cross. */
    left: 26mm;
    right: 26mm;
    text-align: center;
    font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace;
    font-size: 2.3mm;
    letter-spacing: 0.02em;
    color: #8b8799;
  }
  @media screen and (max-width: 1040px) {
    .stage { overflow-x: auto; }
  }
  @media print {
    html, body { width: 100%; height: 100%; background: #ffffff; }
    .screen-note { display: none; }
    .stage {
      padding: 0;
      height: 100%;
      display: flex;
      align-items: center;
      justify-content: center;
    }
    .sheet { background: #ffffff; box-shadow: none; margin: 0; break-inside: avoid; page-break-inside: avoid; }
  }
</style>
</head>
<body>
<p class="screen-note">To keep a PDF copy, print this page (Ctrl+P or Cmd+P) and choose Save as PDF. It fits one landscape A4 or Letter page.</p>
<main class="stage">
<article class="sheet${claim ? " has-credit" : ""}" aria-label="Certificate of Completion">
  <div class="frame"><div class="frame-inner">
    ${corner("tl")}${verification ? `<div class="verify">${verification.qrSvg}<span>Scan to verify</span></div>` : corner("tr")}${corner("bl")}${corner("br")}
    <div class="content">
      <div class="brand">${LOGO_SVG}<span>${product}</span></div>
      <p class="eyebrow">Certificate</p>
      <h1>of Completion</h1>
      <div class="rule" aria-hidden="true"><span></span></div>
      <p class="certify">This is to certify that</p>
      <p class="name">${name}</p>
      <p class="completed">has successfully completed the course</p>
      <p class="course">${course}</p>
      <p class="meta">${category ? `${category} &middot; ` : ""}<b>${hours}</b> of study &middot; completed on <b>${date}</b></p>
      ${credit ? `<p class="credit">${credit}</p>` : ""}
      ${claim ? claimHtml(claim.facts, options.timeZone) : ""}
      <div class="footer">
        <div class="sign">
          <span class="value">${date}</span>
          <span class="line"></span>
          <span class="label">Date of completion</span>
        </div>
        ${SEAL_SVG}
        ${
          claim?.facts.officialName
            ? officialHtml(claim.facts, claim.signatureSrc)
            : `<div class="sign">
          <span class="value"></span>
          <span class="line"></span>
          <span class="label">${product} &middot; Authorized signature</span>
        </div>`
        }
      </div>
    </div>
    ${
      verification
        ? `<p class="number">Certificate no. ${escapeHtml(verification.code)} &middot; Verify at ${escapeHtml(verification.url)}</p>`
        : number
          ? `<p class="number">Certificate no. ${number}</p>`
          : ""
    }
  </div></div>
</article>
</main>
</body>
</html>
`;
}

/** The claim's facts as a two-column list, then the accreditation statement. */
function claimHtml(facts: CreditClaimFacts, timeZone?: string): string {
  const sponsor = [facts.sponsor, facts.sponsorAddress].filter(Boolean).join(", ");
  const attested = facts.attestedAt ? formatCompletionDate(facts.attestedAt, timeZone) : "";
  const items: [string, string | null, boolean?][] = [
    ["Credits", facts.credits],
    ["Delivery method", facts.deliveryMethod],
    ["Fields of study", facts.fields, true],
    ["Sponsor", sponsor || null, true],
    ["Sponsor registry no.", facts.registryNumber],
    ["Attested on", attested || null],
    ["Licence", facts.licence, true],
  ];
  const rows = items
    .filter(([, value]) => value)
    .map(
      ([label, value, wide]) =>
        `<div${wide ? ' class="wide"' : ""}><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value ?? "")}</dd></div>`,
    )
    .join("");
  const statement = facts.accreditationStatement
    ? `<p class="statement">${escapeHtml(facts.accreditationStatement)}</p>`
    : "";
  return `${rows ? `<dl class="claim">${rows}</dl>` : ""}${statement}`;
}

/** The responsible official's signature, name and title, in place of the blank signature line. */
function officialHtml(facts: CreditClaimFacts, signatureSrc: string | null): string {
  const name = escapeHtml(facts.officialName ?? "");
  const image = signatureSrc
    ? `<img src="${escapeHtml(signatureSrc)}" alt="Signature of ${name}">`
    : "";
  const title = facts.officialTitle ? ` &middot; ${escapeHtml(facts.officialTitle)}` : "";
  return `<div class="sign">
          <span class="value signature">${image}</span>
          <span class="line"></span>
          <span class="label">${name}${title}</span>
        </div>`;
}

function corner(position: "tl" | "tr" | "bl" | "br"): string {
  return `<svg class="corner ${position}" viewBox="0 0 100 100" aria-hidden="true"><path d="M4 96V30C4 15 15 4 30 4h66" fill="none" stroke="#b08d3e" stroke-width="2.4"/><path d="M14 96V38c0-13 11-24 24-24h58" fill="none" stroke="#312e81" stroke-width="1.2"/><circle cx="30" cy="30" r="5" fill="#b08d3e"/><path d="M30 16l3 11 11 3-11 3-3 11-3-11-11-3 11-3z" fill="#312e81" opacity=".85"/></svg>`;
}

const LOGO_SVG = `<svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M8 12.5 16 8.5l8 4-8 4-8-4Z" fill="#fff"/><path d="M11.5 15v4.6c0 1.4 2 2.9 4.5 2.9s4.5-1.5 4.5-2.9V15L16 17.3 11.5 15Z" fill="#c7d2fe"/><path d="M24 12.5v5.5" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/></svg>`;

/** A gold rosette with a ribbon and a check: drawn, so the file needs nothing else. */
const SEAL_SVG = (() => {
  const points: string[] = [];
  const spikes = 24;
  for (let i = 0; i < spikes * 2; i += 1) {
    const radius = i % 2 === 0 ? 46 : 41;
    const angle = (Math.PI * i) / spikes - Math.PI / 2;
    points.push(
      `${(50 + radius * Math.cos(angle)).toFixed(2)},${(50 + radius * Math.sin(angle)).toFixed(2)}`,
    );
  }
  return `<svg class="seal" viewBox="0 0 100 120" aria-hidden="true"><path d="M32 78 22 116l14-8 10 12 6-36z" fill="#312e81"/><path d="M68 78l10 38-14-8-10 12-6-36z" fill="#3f3a9e"/><polygon points="${points.join(" ")}" fill="#b08d3e"/><circle cx="50" cy="50" r="36" fill="#c9a55a"/><circle cx="50" cy="50" r="31" fill="none" stroke="#fffdf8" stroke-width="1.2" stroke-dasharray="2 2.2"/><circle cx="50" cy="50" r="25" fill="#b08d3e"/><path d="M38 50.5l8 8 16-17" fill="none" stroke="#fffdf8" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
})();
