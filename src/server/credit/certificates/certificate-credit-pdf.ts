import { type PDFDocument, type PDFImage, type PDFPage, rgb } from "pdf-lib";
import type { CertificateDocument, CertificateField } from "../../../contract";
import { drawText, isolate, type Typeface, wrapText } from "./pdf-text";

const NAVY = rgb(0.19, 0.18, 0.51);
const INK = rgb(0.12, 0.11, 0.17);
const MUTED = rgb(0.36, 0.35, 0.45);

/** A signature or logo as the PDF embeds it: PNG or JPEG, told apart by their bytes. */
export function embedImage(doc: PDFDocument, bytes: Uint8Array): Promise<PDFImage> {
  const png = bytes[0] === 0x89 && bytes[1] === 0x50;
  return png ? doc.embedPng(bytes) : doc.embedJpg(bytes);
}

/** Draws an image scaled to fit a box, centred in it. */
export function drawFitted(
  page: PDFPage,
  image: PDFImage,
  box: { x: number; y: number; width: number; height: number },
) {
  const scale = Math.min(box.width / image.width, box.height / image.height, 1);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, {
    x: box.x + (box.width - width) / 2,
    y: box.y + (box.height - height) / 2,
    width,
    height,
  });
}

const [WIDTH, HEIGHT] = [842, 595];
const LEFT = 60;
const VALUE_X = 250;
const VALUE_WIDTH = WIDTH - VALUE_X - 60;
/** The lowest a row may reach: below it sit the official's signature and the number. */
const ROWS_BOTTOM = 150;

/**
 * The second page of a credit-ready certificate: everything an accreditor prescribes that the
 * first page has no room for, as label and value rows (the same rows as the HTML
 * certificate's), closed by the responsible official's signature. Rows that do not fit go on
 * a further page.
 */
export function drawCreditPage(
  pdf: PDFDocument,
  doc: CertificateDocument,
  details: CertificateField[],
  fonts: { sans: Typeface; sansBold: Typeface; serif: Typeface; mono: Typeface },
  signature: PDFImage | null,
) {
  let page = pdf.addPage([WIDTH, HEIGHT]);
  let y = HEIGHT - 70;
  const heading = (title: string) => {
    drawText(page, title, { x: LEFT, y, size: 22, font: fonts.serif, color: NAVY });
    y -= 20;
    drawText(page, `${isolate(doc.learnerName)} · ${isolate(doc.courseTitle)}`, {
      x: LEFT,
      y,
      size: 10,
      font: fonts.sans,
      color: MUTED,
    });
    y -= 28;
  };
  const number = () => {
    if (!doc.verification) return;
    drawText(page, `Certificate no. ${doc.verification.code}`, {
      x: WIDTH - 300,
      y: 40,
      size: 7.5,
      font: fonts.mono,
      color: MUTED,
    });
  };
  heading("Credit details");

  for (const field of details) {
    const lines = wrapText(field.value, fonts.sans, 10, VALUE_WIDTH);
    const labelLines = wrapText(field.label, fonts.sansBold, 8, VALUE_X - LEFT - 12);
    const rowHeight = Math.max(lines.length, labelLines.length) * 14 + 6;
    if (y - rowHeight < ROWS_BOTTOM && y < HEIGHT - 130) {
      number();
      page = pdf.addPage([WIDTH, HEIGHT]);
      y = HEIGHT - 70;
      heading("Credit details (continued)");
    }
    labelLines.forEach((text, i) => {
      drawText(page, text, { x: LEFT, y: y - i * 14, size: 8, font: fonts.sansBold, color: MUTED });
    });
    lines.forEach((text, i) => {
      drawText(page, text, { x: VALUE_X, y: y - i * 14, size: 10, font: fonts.sans, color: INK });
    });
    y -= rowHeight;
  }

  // The responsible official's signature closes the page; name and title wrap, never cut.
  const signY = Math.min(y - 20, 120);
  if (signature) drawFitted(page, signature, { x: LEFT, y: signY + 4, width: 200, height: 50 });
  page.drawLine({
    start: { x: LEFT, y: signY },
    end: { x: LEFT + 220, y: signY },
    thickness: 0.8,
    color: INK,
  });
  y = signY - 14;
  if (doc.signatory) {
    for (const text of wrapText(doc.signatory.name, fonts.sansBold, 10, 300)) {
      drawText(page, text, { x: LEFT, y, size: 10, font: fonts.sansBold, color: INK });
      y -= 12;
    }
    for (const text of wrapText(doc.signatory.title ?? "", fonts.sans, 9, 300)) {
      drawText(page, text, { x: LEFT, y, size: 9, font: fonts.sans, color: MUTED });
      y -= 11;
    }
  }
  number();
}
