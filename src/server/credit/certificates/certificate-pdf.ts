import { PDFDocument, rgb } from "pdf-lib";
import {
  type Certificate,
  type CertificateDocument,
  certificateDocument,
  type DateFormat,
  DEFAULT_DATE_FORMAT,
  metaText,
} from "../../../contract";
import { withinImageBounds } from "../../lib/image-bounds";
import { drawCreditPage, drawFitted, embedImage } from "./certificate-credit-pdf";
import { embedPdfFonts } from "./pdf-fonts";
import { drawCentered, drawText, isolate, type Typeface, textWidth, wrapText } from "./pdf-text";
import { drawQrCode } from "./qr-code";

const NAVY = rgb(0.19, 0.18, 0.51);
const INK = rgb(0.12, 0.11, 0.17);
const MUTED = rgb(0.36, 0.35, 0.45);
const GOLD = rgb(0.69, 0.55, 0.24);
const PAPER = rgb(1, 0.992, 0.973);
const RED = rgb(0.73, 0.11, 0.11);

/** What a certificate's PDF draws beside its own record. */
export interface CertificateAssets {
  /** The responsible official's signature image, for a credit-ready certificate. */
  signature: Uint8Array | null;
  /** The issuing organisation's logo as it was at issue. */
  logo: Uint8Array | null;
  /** The portal's date format (organisation settings). */
  dateFormat: DateFormat;
}

const NO_ASSETS: CertificateAssets = {
  signature: null,
  logo: null,
  dateFormat: DEFAULT_DATE_FORMAT,
};

/** The largest size up to `size` at which `text` fits `width` on one line, never below `min`. */
function fittedSize(text: string, face: Typeface, size: number, width: number, min: number) {
  const measured = textWidth(text, face, size);
  return measured <= width ? size : Math.max(min, Math.floor((size * width * 10) / measured) / 10);
}

/**
 * The certificate as a landscape A4 PDF, from the same document as the HTML certificate
 * (contract certificate-document.ts): the same fields, labels and dates, plus the
 * verification code, its address and a QR code of it. A revoked certificate says so. A
 * credit-ready certificate prints the responsible official's signature on the first page and
 * the accreditor's prescribed content on a second.
 */
export async function buildCertificatePdf(
  cert: Certificate,
  assets: CertificateAssets = NO_ASSETS,
): Promise<Uint8Array> {
  const document = certificateDocument(cert, { dateFormat: assets.dateFormat });
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Certificate of Completion: ${cert.courseTitle} · ${cert.learnerName}`);
  pdf.setAuthor(cert.issuerName);
  pdf.setCreator(cert.issuerName);
  pdf.setSubject(`Verify at ${cert.verifyUrl}`);
  pdf.setKeywords([cert.code]);
  // Every text the pages draw beyond the fixed English wording comes from the document.
  const fonts = await embedPdfFonts(pdf, JSON.stringify(document), [
    "serif",
    "serifItalic",
    "sans",
    "sansBold",
    "mono",
  ]);
  // An image stored before its sides were bounded, past them, is left out rather than decoded.
  const drawable = (bytes: Uint8Array | null | undefined) =>
    bytes && withinImageBounds(bytes) ? embedImage(pdf, bytes) : null;
  const signature = await drawable(assets.signature);
  const logo = await drawable(assets.logo);
  await drawFirstPage(pdf, document, fonts, { signature, logo });
  if (document.details) drawCreditPage(pdf, document, document.details, fonts, signature);
  return pdf.save();
}

type Fonts = Record<"serif" | "serifItalic" | "sans" | "sansBold" | "mono", Typeface>;
type Images = Record<"signature" | "logo", Awaited<ReturnType<typeof embedImage>> | null>;

async function drawFirstPage(
  pdf: PDFDocument,
  doc: CertificateDocument,
  fonts: Fonts,
  images: Images,
) {
  const { serif, serifItalic, sans, sansBold, mono } = fonts;
  const [width, height] = [842, 595];
  const page = pdf.addPage([width, height]);
  const centerX = width / 2;

  page.drawRectangle({ x: 0, y: 0, width, height, color: PAPER });
  page.drawRectangle({
    x: 20,
    y: 20,
    width: width - 40,
    height: height - 40,
    borderColor: NAVY,
    borderWidth: 4.5,
  });
  page.drawRectangle({
    x: 29,
    y: 29,
    width: width - 58,
    height: height - 58,
    borderColor: GOLD,
    borderWidth: 1.2,
  });

  // The issuer: its logo above its name, the name made smaller rather than cut.
  if (images.logo)
    drawFitted(page, images.logo, { x: centerX - 80, y: 538, width: 160, height: 22 });
  const issuerSize = fittedSize(doc.issuer.name, sansBold, 13, 640, 8);
  drawCentered(page, wrapText(doc.issuer.name, sansBold, issuerSize, 640)[0] ?? "", {
    y: 522,
    size: issuerSize,
    font: sansBold,
    color: NAVY,
    centerX,
  });
  drawCentered(page, "C E R T I F I C A T E", {
    y: 490,
    size: 10,
    font: sansBold,
    color: GOLD,
    centerX,
  });
  drawCentered(page, "of Completion", { y: 452, size: 36, font: serif, color: NAVY, centerX });
  page.drawLine({
    start: { x: centerX - 110, y: 438 },
    end: { x: centerX + 110, y: 438 },
    thickness: 1,
    color: GOLD,
  });
  drawCentered(page, "This is to certify that", {
    y: 410,
    size: 13,
    font: serifItalic,
    color: MUTED,
    centerX,
  });

  let y = 372;
  for (const line of wrapText(doc.learnerName, serifItalic, 32, 620).slice(0, 2)) {
    drawCentered(page, line, { y, size: 32, font: serifItalic, color: NAVY, centerX });
    y -= 36;
  }
  y -= 4;
  drawCentered(page, "has successfully completed the course", {
    y,
    size: 13,
    font: serifItalic,
    color: MUTED,
    centerX,
  });
  y -= 32;
  for (const line of wrapText(doc.courseTitle, sansBold, 21, 640).slice(0, 2)) {
    drawCentered(page, line, { y, size: 21, font: sansBold, color: NAVY, centerX });
    y -= 26;
  }
  // The spec's line, or the labelled fields of a credit course; then the notes.
  const summary = doc.meta
    ? metaText(doc.meta, isolate)
    : doc.fields.map((f) => `${f.label}: ${isolate(f.value)}`).join(" · ");
  y += 17;
  for (const line of wrapText(summary, sans, 10.5, 640).slice(0, 2)) {
    y -= 17;
    drawCentered(page, line, { y: y - 2, size: 10.5, font: sans, color: MUTED, centerX });
  }
  const notes = doc.notes.map(isolate).join(" · ");
  for (const line of wrapText(notes, sansBold, 10.5, 600).slice(0, 2)) {
    y -= 17;
    drawCentered(page, line, { y: y - 2, size: 10.5, font: sansBold, color: INK, centerX });
  }

  // Footer: date and signature lines on the left, verification with the QR code on the right.
  page.drawLine({ start: { x: 80, y: 98 }, end: { x: 290, y: 98 }, thickness: 0.8, color: INK });
  drawCentered(page, doc.completedOn, { y: 104, size: 13, font: serif, color: NAVY, centerX: 185 });
  drawCentered(page, "DATE OF COMPLETION", {
    y: 86,
    size: 7.5,
    font: sans,
    color: MUTED,
    centerX: 185,
  });
  page.drawLine({ start: { x: 320, y: 98 }, end: { x: 530, y: 98 }, thickness: 0.8, color: INK });
  if (images.signature) {
    drawFitted(page, images.signature, { x: 330, y: 101, width: 190, height: 40 });
  }
  // The signatory's name and title wrap under the line, never cut: two lines each at most,
  // which the longest name and title the settings allow fit at this size.
  let signY = 86;
  const signLines = doc.signatory
    ? [
        ...wrapText(doc.signatory.name, sansBold, 7.5, 230)
          .slice(0, 2)
          .map((text) => ({ text, font: sansBold, color: INK })),
        ...wrapText(doc.signatory.title ?? "", sans, 7.5, 230)
          .slice(0, 2)
          .map((text) => ({ text, font: sans, color: MUTED })),
      ]
    : wrapText(`${isolate(doc.issuer.name.toUpperCase())} · AUTHORIZED SIGNATURE`, sans, 7.5, 230)
        .slice(0, 2)
        .map((text) => ({ text, font: sans, color: MUTED }));
  for (const line of signLines) {
    drawCentered(page, line.text, {
      y: signY,
      size: 7.5,
      font: line.font,
      color: line.color,
      centerX: 425,
    });
    signY -= 9.5;
  }

  if (doc.verification) {
    drawQrCode(page, doc.verification.url, { x: 690, y: 52, size: 92, color: INK });
    drawText(page, "Verify this certificate", {
      x: 560,
      y: 126,
      size: 8,
      font: sansBold,
      color: INK,
    });
    drawText(page, "Scan the code or visit:", {
      x: 560,
      y: 114,
      size: 7.5,
      font: sans,
      color: MUTED,
    });
    let urlY = 102;
    // Cut by characters, not words: a space inside the address would break it when typed.
    const perLine = Math.floor(125 / textWidth("M", mono, 6.5));
    const url = Array.from(doc.verification.url);
    for (let start = 0; start < Math.min(url.length, 3 * perLine); start += perLine) {
      const line = url.slice(start, start + perLine).join("");
      drawText(page, line, { x: 560, y: urlY, size: 6.5, font: mono, color: NAVY });
      urlY -= 9;
    }
    drawCentered(page, `Certificate no. ${doc.verification.code}`, {
      y: 38,
      size: 7.5,
      font: mono,
      color: MUTED,
      centerX,
    });
  }

  if (doc.revoked) {
    // In the free band between the fields and the footer, over nothing it hides.
    page.drawRectangle({
      x: 150,
      y: 150,
      width: width - 300,
      height: 50,
      color: rgb(1, 0.95, 0.95),
      borderColor: RED,
      borderWidth: 2,
    });
    drawCentered(page, `REVOKED on ${doc.revoked.on}`, {
      y: 180,
      size: 16,
      font: sansBold,
      color: RED,
      centerX,
    });
    const reason = wrapText(`Reason: ${isolate(doc.revoked.reason)}`, sans, 9, width - 330)[0];
    drawCentered(page, reason ?? "", { y: 162, size: 9, font: sans, color: RED, centerX });
  }
}
