import { type PDFDocument, type PDFImage, type PDFPage, type RGB, rgb } from "pdf-lib";
import { type Certificate, claimedFields, formatCertificateCode } from "../../../contract";
import { drawText, isolate, longDate, type Typeface, wrapText } from "./pdf-text";

const NAVY = rgb(0.19, 0.18, 0.51);
const INK = rgb(0.12, 0.11, 0.17);
const MUTED = rgb(0.36, 0.35, 0.45);

/** The official's signature as the PDF embeds it: PNG or JPEG, told apart by their bytes. */
export function embedSignature(doc: PDFDocument, bytes: Uint8Array): Promise<PDFImage> {
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

/** The credits a credit-ready certificate awards: the claim, or the designated credit. */
export const awardedCredits = (cert: Certificate) =>
  cert.credit?.creditsClaimed ?? cert.creditHours;

/**
 * The second page of a credit-ready certificate: everything an accreditor prescribes that the
 * first page has no room for, as label and value rows.
 */
export function drawCreditPage(
  doc: PDFDocument,
  cert: Certificate,
  fonts: { sans: Typeface; sansBold: Typeface; serif: Typeface; mono: Typeface },
  signature: PDFImage | null,
) {
  const credit = cert.credit!;
  const [width, height] = [842, 595];
  const page = doc.addPage([width, height]);
  const left = 60;
  const valueX = 250;
  const valueWidth = width - valueX - 60;
  let y = height - 70;
  const line = (text: string, options: { x: number; size: number; font: Typeface; color: RGB }) => {
    drawText(page, text, { ...options, y });
  };
  line("Credit details", { x: left, size: 22, font: fonts.serif, color: NAVY });
  y -= 20;
  line(`${isolate(cert.learnerName)} · ${isolate(cert.courseTitle)}`, {
    x: left,
    size: 10,
    font: fonts.sans,
    color: MUTED,
  });
  y -= 28;

  const claimed = awardedCredits(cert);
  const unit = cert.creditType ? `${isolate(cert.creditType)} credits` : "credits";
  const licence = credit.licence;
  const licenceText = licence
    ? [
        [licence.licenceType, licence.licenceNumber].filter(Boolean).map(isolate).join(" "),
        licence.licenceState ? isolate(licence.licenceState) : "",
        licence.npn ? `NPN ${licence.npn}` : "",
      ]
        .filter(Boolean)
        .join(" · ")
    : "";
  const rows: [string, string][] = [
    ["Sponsor", credit.sponsorName],
    ["Sponsor address", credit.sponsorAddress],
    ["Delivery method", credit.deliveryMethod],
    [
      "Credits awarded",
      claimed === null
        ? ""
        : `${claimed} ${unit}${cert.creditHours !== null && claimed !== cert.creditHours ? ` claimed (of ${cert.creditHours} designated)` : ""}`,
    ],
    [
      "Fields of study",
      claimedFields(credit.fieldsOfStudy, cert.creditHours, claimed)
        .map((f) => `${isolate(f.field)}: ${f.credits}`)
        .join(" · "),
    ],
    ["Accrediting body", cert.accreditingBody ?? ""],
    ["Registry number", credit.registryNumber],
    ["Provider number", cert.providerNumber ?? ""],
    ["Learner's licence", licenceText],
    ["Attested on", credit.attestedAt ? longDate(credit.attestedAt) : ""],
    ["Completed on", longDate(cert.completedAt)],
    [
      "Final exam",
      cert.examScore !== null && cert.examPassedAt
        ? `Passed with ${cert.examScore}% on ${longDate(cert.examPassedAt)}`
        : "",
    ],
    ["Accreditation", credit.accreditationStatement],
  ];
  for (const [label, value] of rows) {
    if (!value) continue;
    const lines = wrapText(value, fonts.sans, 10, valueWidth).slice(0, 8);
    line(label.toUpperCase(), { x: left, size: 7.5, font: fonts.sansBold, color: MUTED });
    for (const text of lines) {
      drawText(page, text, { x: valueX, y, size: 10, font: fonts.sans, color: INK });
      y -= 14;
    }
    y -= 6;
  }

  // The responsible official's signature closes the page.
  const signY = Math.min(y - 20, 120);
  if (signature) drawFitted(page, signature, { x: left, y: signY + 4, width: 200, height: 50 });
  page.drawLine({
    start: { x: left, y: signY },
    end: { x: left + 220, y: signY },
    thickness: 0.8,
    color: INK,
  });
  y = signY - 14;
  if (credit.officialName) {
    line(credit.officialName, { x: left, size: 10, font: fonts.sansBold, color: INK });
    y -= 12;
  }
  if (credit.officialTitle)
    line(credit.officialTitle, { x: left, size: 9, font: fonts.sans, color: MUTED });
  drawText(page, `Certificate no. ${formatCertificateCode(cert.code)}`, {
    x: width - 300,
    y: 40,
    size: 7.5,
    font: fonts.mono,
    color: MUTED,
  });
}
