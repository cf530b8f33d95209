import { PDFDocument, type PDFPage, rgb } from "pdf-lib";
import {
  type DateFormat,
  DEFAULT_DATE_FORMAT,
  formatCertificateCode,
  formatDocumentDate,
  type Transcript,
} from "../../../contract";
import { embedPdfFonts } from "./pdf-fonts";
import { drawText, isolate, isolatedCreditLines, type Typeface, wrapText } from "./pdf-text";

const NAVY = rgb(0.19, 0.18, 0.51);
const INK = rgb(0.12, 0.11, 0.17);
const MUTED = rgb(0.36, 0.35, 0.45);
const LINE = rgb(0.85, 0.85, 0.88);
const RED = rgb(0.73, 0.11, 0.11);

const [WIDTH, HEIGHT] = [595, 842];
const TRANSCRIPT_TITLE = "Transcript of continuing education";
/** "1 course", "3 courses". */
const count = (n: number, noun: string) => `${n} ${n === 1 ? noun : `${noun}s`}`;
const MARGIN = 48;
/** Column x positions: course, enrolled, completed, hours. */
const COLS = { course: MARGIN, enrolled: 318, completed: 398, hours: 490 };

/**
 * The transcript as an A4 portrait PDF, paginated, with the header repeated on each page;
 * dates in the portal's format, as its certificates print them.
 */
export async function buildTranscriptPdf(
  t: Transcript,
  dateFormat: DateFormat = DEFAULT_DATE_FORMAT,
): Promise<Uint8Array> {
  const date = (iso: string | null) => (iso ? formatDocumentDate(iso, dateFormat) : "—");
  const doc = await PDFDocument.create();
  doc.setTitle(`Transcript: ${t.learner.name}`);
  doc.setAuthor(t.issuerName);
  doc.setCreator(t.issuerName);
  // Every text the pages draw beyond the fixed English wording comes from the transcript.
  const {
    sans,
    sansBold: bold,
    mono,
  } = await embedPdfFonts(doc, JSON.stringify(t), ["sans", "sansBold", "mono"]);
  const text = (
    page: PDFPage,
    s: string,
    x: number,
    y: number,
    size: number,
    font: Typeface,
    color = INK,
  ) => drawText(page, s, { x, y, size, font, color });

  let page = doc.addPage([WIDTH, HEIGHT]);
  let y = HEIGHT - MARGIN;

  function tableHeader() {
    page.drawRectangle({
      x: MARGIN,
      y: y - 6,
      width: WIDTH - 2 * MARGIN,
      height: 20,
      color: rgb(0.95, 0.95, 0.98),
    });
    text(page, "Course", COLS.course + 4, y, 8.5, bold, MUTED);
    text(page, "Enrolled", COLS.enrolled, y, 8.5, bold, MUTED);
    text(page, "Completed", COLS.completed, y, 8.5, bold, MUTED);
    text(page, "Hours", COLS.hours, y, 8.5, bold, MUTED);
    y -= 24;
  }

  // The issuing organisation, with its address and contact email when set.
  text(page, t.issuerName, MARGIN, y, 11, bold, NAVY);
  const contact = [...t.issuerAddress.split(/\s*\n\s*/), t.issuerContactEmail].filter(Boolean);
  for (const line of wrapText(contact.map(isolate).join(" · "), sans, 8.5, WIDTH - 2 * MARGIN)) {
    y -= 12;
    text(page, line, MARGIN, y, 8.5, sans, MUTED);
  }
  y -= 30;
  // A record of continuing education, not of a degree: "academic" would overstate it.
  text(page, TRANSCRIPT_TITLE, MARGIN, y, 22, bold, INK);
  y -= 24;
  text(page, t.learner.name, MARGIN, y, 13, bold, NAVY);
  y -= 16;
  text(page, t.learner.email, MARGIN, y, 10, sans, MUTED);
  y -= 22;
  const credit = t.totals.credits.length
    ? `${t.totals.credits.map((c) => c.text).join(" · ")} (valid certificates)`
    : "no credit earned";
  const summary = `${count(t.totals.courses, "course")} · ${t.totals.completed} completed · ${credit} · generated ${date(t.generatedAt)}`;
  for (const line of wrapText(summary, sans, 9.5, WIDTH - 2 * MARGIN)) {
    text(page, line, MARGIN, y, 9.5, sans, MUTED);
    y -= 13;
  }
  y -= 14;
  tableHeader();

  if (!t.entries.length) text(page, "No courses yet.", MARGIN + 4, y, 10, sans, MUTED);
  for (const e of t.entries) {
    const titleLines = wrapText(e.courseTitle, bold, 10, COLS.enrolled - COLS.course - 14).slice(
      0,
      3,
    );
    // A course with credit names its field of study, never the spec's category.
    const subject = e.credits.length ? e.fieldOfStudy : e.courseCategory;
    const details = [
      ...(subject ? [isolate(subject)] : []),
      e.status === "completed"
        ? "Completed"
        : e.status === "in-progress"
          ? `In progress (${e.progress}%)`
          : "Not started",
      ...isolatedCreditLines(e, dateFormat),
    ].join(" · ");
    const detailLines = wrapText(details, sans, 8, COLS.hours + 50 - COLS.course - 4).slice(0, 3);
    const cert = e.certificate;
    // A revoked certificate says when and why, and that its credit left the totals above.
    const revokedLines =
      cert?.status === "revoked"
        ? wrapText(
            `Revoked on ${date(cert.revokedAt)}. Reason: ${isolate(cert.revokedReason ?? "")}. Its credit is not counted in the totals.`,
            sans,
            8,
            COLS.hours + 50 - COLS.course - 4,
          ).slice(0, 4)
        : [];
    const rowHeight =
      titleLines.length * 13 +
      detailLines.length * 11 +
      revokedLines.length * 10 +
      (cert ? 24 : 0) +
      10;
    if (y - rowHeight < MARGIN + 20) {
      page = doc.addPage([WIDTH, HEIGHT]);
      y = HEIGHT - MARGIN;
      text(page, `${isolate(t.learner.name)}: transcript (continued)`, MARGIN, y, 10, bold, MUTED);
      y -= 26;
      tableHeader();
    }
    const top = y;
    for (const line of titleLines) {
      text(page, line, COLS.course + 4, y, 10, bold);
      y -= 13;
    }
    text(page, date(e.enrolledAt), COLS.enrolled, top, 9, sans);
    text(page, date(e.completedAt), COLS.completed, top, 9, sans);
    // A credit course's record is its credit (in its details line), never its whole hours.
    text(page, e.credits.length ? "–" : String(e.durationHours), COLS.hours, top, 9, sans);
    for (const line of detailLines) {
      text(page, line, COLS.course + 4, y, 8, sans, MUTED);
      y -= 11;
    }
    if (cert) {
      const revoked = cert.status === "revoked";
      text(
        page,
        `Certificate ${formatCertificateCode(cert.code)}${revoked ? " · REVOKED" : ""}`,
        COLS.course + 4,
        y,
        7.5,
        mono,
        revoked ? RED : NAVY,
      );
      y -= 10;
      for (const line of revokedLines) {
        text(page, line, COLS.course + 4, y, 8, sans, RED);
        y -= 10;
      }
      text(page, cert.verifyUrl, COLS.course + 4, y, 7, mono, MUTED);
      y -= 14;
    }
    y -= 4;
    page.drawLine({
      start: { x: MARGIN, y: y + 8 },
      end: { x: WIDTH - MARGIN, y: y + 8 },
      thickness: 0.5,
      color: LINE,
    });
    y -= 6;
  }

  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const footer = `${isolate(t.issuerName)} · ${isolate(t.learner.name)} · page ${i + 1} of ${pages.length}`;
    text(p, footer, MARGIN, 28, 7.5, sans, MUTED);
  });
  return doc.save();
}
