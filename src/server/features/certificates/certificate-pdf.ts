import { PDFDocument, rgb } from "pdf-lib";
import { type Certificate, formatCertificateCode, hoursText } from "../../../contract";
import {
  awardedCredits,
  drawCreditPage,
  drawFitted,
  embedSignature,
} from "./certificate-credit-pdf";
import { embedPdfFonts } from "./pdf-fonts";
import {
  drawCentered,
  drawText,
  isolate,
  isolatedCreditLines,
  longDate,
  textWidth,
  wrapText,
} from "./pdf-text";
import { drawQrCode } from "./qr-code";

const NAVY = rgb(0.19, 0.18, 0.51);
const INK = rgb(0.12, 0.11, 0.17);
const MUTED = rgb(0.36, 0.35, 0.45);
const GOLD = rgb(0.69, 0.55, 0.24);
const PAPER = rgb(1, 0.992, 0.973);
const RED = rgb(0.73, 0.11, 0.11);

/**
 * The certificate as a landscape A4 PDF: the same content as the HTML one, plus the
 * verification code, its address and a QR code of it. A revoked certificate says so. A
 * credit-ready certificate (one with `credit`) prints the credit awarded and the responsible
 * official's signature on the first page, and the accreditor's prescribed content on a second.
 */
export async function buildCertificatePdf(
  cert: Certificate,
  signatureBytes: Uint8Array | null = null,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Certificate of Completion: ${cert.courseTitle} · ${cert.learnerName}`);
  doc.setAuthor(cert.issuerName);
  doc.setCreator(cert.issuerName);
  doc.setSubject(`Verify at ${cert.verifyUrl}`);
  doc.setKeywords([cert.code]);
  const [width, height] = [842, 595];
  const page = doc.addPage([width, height]);
  // Every text the page draws beyond the fixed English wording comes from the certificate.
  const { serif, serifItalic, sans, sansBold, mono } = await embedPdfFonts(
    doc,
    JSON.stringify(cert),
    ["serif", "serifItalic", "sans", "sansBold", "mono"],
  );
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

  drawCentered(page, cert.issuerName, { y: 522, size: 13, font: sansBold, color: NAVY, centerX });
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
  for (const line of wrapText(cert.learnerName, serifItalic, 32, 620).slice(0, 2)) {
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
  for (const line of wrapText(cert.courseTitle, sansBold, 21, 640).slice(0, 2)) {
    drawCentered(page, line, { y, size: 21, font: sansBold, color: NAVY, centerX });
    y -= 26;
  }
  const meta = `${isolate(cert.courseCategory)} · ${hoursText(cert.durationHours)} of study · completed on ${longDate(cert.completedAt)}`;
  drawCentered(page, meta, { y: y - 2, size: 10.5, font: sans, color: MUTED, centerX });
  const credit = isolatedCreditLines({ ...cert, creditHours: awardedCredits(cert) });
  if (credit.length) {
    for (const line of wrapText(credit.join(" · "), sansBold, 10.5, 560).slice(0, 2)) {
      y -= 17;
      drawCentered(page, line, { y: y - 2, size: 10.5, font: sansBold, color: INK, centerX });
    }
  }

  // Footer: date and signature lines on the left, verification with the QR code on the right.
  page.drawLine({ start: { x: 80, y: 98 }, end: { x: 290, y: 98 }, thickness: 0.8, color: INK });
  drawCentered(page, longDate(cert.completedAt), {
    y: 104,
    size: 13,
    font: serif,
    color: NAVY,
    centerX: 185,
  });
  drawCentered(page, "DATE OF COMPLETION", {
    y: 86,
    size: 7.5,
    font: sans,
    color: MUTED,
    centerX: 185,
  });
  page.drawLine({ start: { x: 320, y: 98 }, end: { x: 530, y: 98 }, thickness: 0.8, color: INK });
  const signature = signatureBytes ? await embedSignature(doc, signatureBytes) : null;
  if (signature) drawFitted(page, signature, { x: 330, y: 101, width: 190, height: 40 });
  const official = cert.credit?.officialName
    ? [cert.credit.officialName, cert.credit.officialTitle].filter(Boolean).map(isolate).join(", ")
    : `${isolate(cert.issuerName.toUpperCase())} · AUTHORIZED SIGNATURE`;
  drawCentered(page, wrapText(official, sans, 7.5, 230)[0] ?? "", {
    y: 86,
    size: 7.5,
    font: sans,
    color: MUTED,
    centerX: 425,
  });

  drawQrCode(page, cert.verifyUrl, { x: 690, y: 52, size: 92, color: INK });
  const code = formatCertificateCode(cert.code);
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
  const url = Array.from(cert.verifyUrl);
  for (let start = 0; start < Math.min(url.length, 3 * perLine); start += perLine) {
    const line = url.slice(start, start + perLine).join("");
    drawText(page, line, { x: 560, y: urlY, size: 6.5, font: mono, color: NAVY });
    urlY -= 9;
  }
  drawCentered(page, `Certificate no. ${code}`, {
    y: 38,
    size: 7.5,
    font: mono,
    color: MUTED,
    centerX,
  });

  if (cert.status === "revoked") {
    // In the free band between the credit lines and the footer, over nothing it hides.
    page.drawRectangle({
      x: 150,
      y: 150,
      width: width - 300,
      height: 50,
      color: rgb(1, 0.95, 0.95),
      borderColor: RED,
      borderWidth: 2,
    });
    const when = cert.revokedAt ? ` on ${longDate(cert.revokedAt)}` : "";
    drawCentered(page, `REVOKED${when}`, { y: 180, size: 16, font: sansBold, color: RED, centerX });
    const reason =
      wrapText(`Reason: ${isolate(cert.revokedReason ?? "")}`, sans, 9, width - 330)[0] ?? "";
    drawCentered(page, reason, { y: 162, size: 9, font: sans, color: RED, centerX });
  }
  if (cert.credit) drawCreditPage(doc, cert, { sans, sansBold, serif, mono }, signature);
  return doc.save();
}
