/**
 * The completion certificate of SPEC section 3, built in the browser from a completed
 * enrollment: one self-contained HTML file (styles and artwork inline, no scripts, fonts or
 * images from elsewhere) that opens anywhere and prints on one landscape A4 or Letter page
 * (a credit-ready certificate adds a second with the credit details, as its PDF does).
 * Kept free of the DOM so it runs, and is tested, in plain Node.
 *
 * It has the design of the PDF certificate (certificate-pdf.ts on the server) and prints the
 * same document (contract certificate-document.ts): the same fields, labels and dates, layout,
 * text order, colours and type, drawn on the PDF's 842 x 595 point page. Every length
 * is a number of those points times `--u`, so the sheet keeps its proportions at any size:
 * 263 mm wide in print, and no wider than the window on a phone.
 */

import { type CertificateDocument, type CertificateField, metaText } from "@contract";

/** What the HTML certificate draws: the document, and its images inlined. */
export type CertificateHtmlInput = {
  /** The certificate's texts (contract certificate-document.ts), as the PDF prints them. */
  document: CertificateDocument;
  /**
   * The issuer's logo and the official's signature as data URLs, so the file stays whole
   * offline; null without them.
   */
  logoSrc: string | null;
  signatureSrc: string | null;
  /** The QR code of the verification address as inline SVG markup (certificate-qr.ts). */
  qrSvg: string | null;
  /** The software that made the file, named in its generator meta only. */
  productName: string;
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
export function buildCertificateHtml(input: CertificateHtmlInput): string {
  const doc = input.document;
  const name = escapeHtml(doc.learnerName.trim());
  const course = escapeHtml(doc.courseTitle.trim());
  const issuer = escapeHtml(doc.issuer.name.trim());
  const date = escapeHtml(doc.completedOn);
  const verification = doc.verification;
  const code = verification ? escapeHtml(verification.code) : "";
  const title = `Certificate of Completion: ${course} · ${name}`;
  const pages = doc.details
    ? "two landscape A4 or Letter pages"
    : "one landscape A4 or Letter page";
  // The spec's line, or the labelled fields of a course with credit.
  const summary = doc.meta
    ? `<p class="meta">${escapeHtml(metaText(doc.meta))}</p>`
    : `<p class="meta fields">${doc.fields.map(fieldHtml).join(" &middot; ")}</p>`;
  const notes = doc.notes.map(escapeHtml).join(" &middot; ");

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${escapeHtml(input.productName)}">
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
  /* The issuer's logo above its name, in the PDF's 160 x 22 point box. */
  .logo {
    position: absolute;
    top: ${u(35)};
    left: 50%;
    transform: translateX(-50%);
    max-width: ${u(160)};
    height: ${u(22)};
    object-fit: contain;
  }
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
  .meta .field-label { color: ${INK}; }
  .credit { max-width: ${u(600)}; font: 700 ${u(10.5)}/${u(17)} ${SANS}; color: ${INK}; }
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
  /* Under the lines: the label, or the signatory's name and title. They wrap, never cut. */
  .sign .label, .sign .signatory {
    position: absolute;
    left: ${u(-10)};
    right: ${u(-10)};
    top: ${u(502.7 - 441)};
    font: 400 ${u(7.5)}/${u(9.5)} ${SANS};
    overflow-wrap: anywhere;
    color: ${MUTED};
  }
  .sign .label { text-transform: uppercase; }
  .sign .signatory .who { display: block; font-weight: 700; color: ${INK}; }
  .sign .signatory .role { display: block; }
  .revoked {
    position: absolute;
    left: ${u(150)};
    right: ${u(150)};
    top: ${u(595 - 200)};
    height: ${u(50)};
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: ${u(6)};
    border: ${u(2)} solid #b91c1c;
    background: #fff2f2;
    color: #b91c1c;
    font: 400 ${u(9)}/1 ${SANS};
    text-align: center;
  }
  .revoked b { font: 700 ${u(16)}/1 ${SANS}; text-transform: uppercase; }
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
  /* The second page of a credit-ready certificate, as the PDF's "Credit details": it grows
     with its rows rather than cut any, as the PDF goes on to a further page. */
  .sheet.details { height: auto; min-height: ${u(595)}; }
  .details .content {
    min-height: ${u(595)};
    padding: ${u(52)} ${u(60)} ${u(64)};
    display: flex;
    flex-direction: column;
  }
  .details h2 { font: 400 ${u(22)}/1 ${SERIF}; color: ${NAVY}; }
  .details .about { margin-top: ${u(8)}; font: 400 ${u(10)}/1 ${SANS}; color: ${MUTED}; }
  .claim { margin-top: ${u(20)}; display: grid; gap: ${u(6)}; }
  .claim div { display: grid; grid-template-columns: ${u(190)} 1fr; align-items: baseline; }
  .claim dt { font: 700 ${u(8)}/${u(14)} ${SANS}; color: ${MUTED}; }
  .claim dd {
    font: 400 ${u(10)}/${u(14)} ${SANS};
    color: ${INK};
    white-space: pre-line;
    overflow-wrap: anywhere;
  }
  .details .closing { margin-top: auto; padding-top: ${u(14)}; width: ${u(220)}; }
  .details .signature { height: ${u(50)}; display: flex; align-items: flex-end; }
  .details .signature img { max-width: ${u(200)}; max-height: 100%; object-fit: contain; mix-blend-mode: multiply; }
  .details .line { margin-top: ${u(4)}; height: ${u(0.8)}; background: ${INK}; }
  .details .official { margin-top: ${u(6)}; font: 700 ${u(10)}/${u(12)} ${SANS}; color: ${INK}; }
  .details .official-title { font: 400 ${u(9)}/${u(12)} ${SANS}; color: ${MUTED}; }
  .details .number { top: auto; bottom: ${u(40)}; left: auto; right: ${u(60)}; width: ${u(300)}; text-align: left; }
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
<article class="sheet${doc.details ? " has-credit" : ""}" aria-label="Certificate of Completion">
  <div class="frame outer"></div><div class="frame inner"></div>
  ${input.logoSrc ? `<img class="logo" src="${escapeHtml(input.logoSrc)}" alt="${issuer}">` : ""}
  <div class="main">
    <p class="issuer">${issuer}</p>
    <p class="eyebrow">Certificate</p>
    <h1>of Completion</h1>
    <div class="rule" aria-hidden="true"></div>
    <p class="certify">This is to certify that</p>
    <p class="name">${name}</p>
    <p class="completed">has successfully completed the course</p>
    <p class="course">${course}</p>
    ${summary}
    ${notes ? `<p class="credit">${notes}</p>` : ""}
  </div>
  <div class="sign date">
    <span class="value">${date}</span>
    <span class="line"></span>
    <span class="label">Date of completion</span>
  </div>
  ${officialHtml(doc, input.signatureSrc)}
  ${
    verification
      ? `<div class="verify">
    <p class="title">Verify this certificate</p>
    <p class="scan">Scan the code or visit:</p>
    <p class="url">${escapeHtml(verification.url)}</p>
    ${input.qrSvg ?? ""}
  </div>`
      : ""
  }
  ${
    doc.revoked
      ? `<p class="revoked"><b>Revoked on ${escapeHtml(doc.revoked.on)}</b><span>Reason: ${escapeHtml(doc.revoked.reason)}</span></p>`
      : ""
  }
  ${code ? `<p class="number">Certificate no. ${code}</p>` : ""}
</article>
${doc.details ? detailsHtml(doc, doc.details, input.signatureSrc) : ""}
</main>
</body>
</html>
`;
}

/** "Course length: 1 hour", the label set apart for the eye. */
const fieldHtml = (field: CertificateField) =>
  `<span class="field"><span class="field-label">${escapeHtml(field.label)}:</span> ${escapeHtml(field.value)}</span>`;

/**
 * The signature line of the first page: the responsible official's signature, name and title
 * on a credit-ready certificate, else the issuer's line. Name and title wrap, never cut.
 */
function officialHtml(doc: CertificateDocument, signatureSrc: string | null): string {
  const signatory = doc.signatory;
  if (!signatory) {
    return `<div class="sign official">
    <span class="line"></span>
    <span class="label">${escapeHtml(doc.issuer.name)} &middot; Authorized signature</span>
  </div>`;
  }
  const name = escapeHtml(signatory.name);
  const image = signatureSrc
    ? `<img src="${escapeHtml(signatureSrc)}" alt="Signature of ${name}">`
    : "";
  return `<div class="sign official">
    <span class="signature">${image}</span>
    <span class="line"></span>
    <span class="signatory"><span class="who">${name}</span>${
      signatory.title ? `<span class="role">${escapeHtml(signatory.title)}</span>` : ""
    }</span>
  </div>`;
}

/** The second page of a credit-ready certificate: the accreditor's rows, then the official. */
function detailsHtml(
  doc: CertificateDocument,
  details: CertificateField[],
  signatureSrc: string | null,
): string {
  const rows = details
    .map(
      (field) =>
        `<div><dt>${escapeHtml(field.label)}</dt><dd>${escapeHtml(field.value)}</dd></div>`,
    )
    .join("");
  const official = doc.signatory ? escapeHtml(doc.signatory.name) : "";
  const image =
    signatureSrc && official
      ? `<img src="${escapeHtml(signatureSrc)}" alt="Signature of ${official}">`
      : "";
  const code = doc.verification ? escapeHtml(doc.verification.code) : "";
  return `<article class="sheet details" aria-label="Credit details">
  <div class="content">
    <h2>Credit details</h2>
    <p class="about">${escapeHtml(doc.learnerName)} &middot; ${escapeHtml(doc.courseTitle)}</p>
    ${rows ? `<dl class="claim">${rows}</dl>` : ""}
    <div class="closing">
      <div class="signature">${image}</div>
      <div class="line"></div>
      ${official ? `<p class="official">${official}</p>` : ""}
      ${doc.signatory?.title ? `<p class="official-title">${escapeHtml(doc.signatory.title)}</p>` : ""}
    </div>
  </div>
  ${code ? `<p class="number">Certificate no. ${code}</p>` : ""}
</article>`;
}
