import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { Certificate, Transcript } from "../../../contract";
import { pdfText } from "../../testing/pdf-text";
import { buildCertificatePdf } from "./certificate-pdf";
import { buildTranscriptPdf } from "./transcript-pdf";

const buildCertificate = (overrides: Partial<Certificate> = {}): Certificate => ({
  id: "cert-1",
  enrollmentId: "enrollment-1",
  userId: "learner-1",
  courseId: "course-1",
  code: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
  learnerName: "Ada Lovelace",
  courseTitle: "Clinical Ethics",
  courseCategory: "Medicine",
  durationHours: 2,
  credits: [],
  creditHours: 1.5,
  creditType: "CME",
  accreditingBody: "ACCME",
  providerNumber: "P-1234",
  issuerName: "Credo Academy",
  issuerLogoUrl: null,
  examScore: null,
  examPassedAt: null,
  credit: null,
  completedAt: "2026-03-01T10:00:00.000Z",
  issuedAt: "2026-03-01T10:00:00.000Z",
  status: "valid",
  revokedAt: null,
  revokedReason: null,
  verifyUrl: "https://credo.example/verify/ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
  ...overrides,
});

const buildTranscript = (name: string, courseTitle = "Clinical Ethics"): Transcript => ({
  learner: { id: "learner-1", name, email: "learner@example.com" },
  issuerName: "Credo Academy",
  issuerAddress: "",
  issuerContactEmail: "",
  generatedAt: "2026-05-01T12:00:00.000Z",
  totals: { courses: 1, completed: 1, credits: [] },
  entries: [
    {
      courseId: "course-1",
      courseTitle,
      courseCategory: "Medicine",
      status: "completed",
      progress: 100,
      nextStep: null,
      examFailed: false,
      enrolledAt: "2026-02-01T10:00:00.000Z",
      completedAt: "2026-03-01T10:00:00.000Z",
      durationHours: 2,
      credits: [],
      creditHours: 1.5,
      creditType: "CME",
      accreditingBody: "ACCME",
      providerNumber: "P-1234",
      fieldOfStudy: null,
      examScore: null,
      examPassedAt: null,
      certificate: {
        id: "cert-1",
        code: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
        status: "valid",
        revokedAt: null,
        revokedReason: null,
        verifyUrl: "https://credo.example/verify/ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
      },
    },
  ],
});

/** The fonts a PDF embeds, without the suffix that tells subsets apart ("Tinos-Regular-1234"). */
async function embeddedFonts(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  const names = new Set<string>();
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    if (object.get(PDFName.of("Type")) !== PDFName.of("FontDescriptor")) continue;
    names.add(String(object.get(PDFName.of("FontName"))).replace(/^\/(.*)-\d+$/, "$1"));
  }
  return [...names].sort();
}

const lines = async (pdf: Uint8Array) => (await pdfText(pdf)).split("\n");

/**
 * Names in every script the portal's learners write in. Arabic and Hebrew are drawn right to
 * left (Arabic with its joined letter forms) as one run of glyphs in visual order; pdf.js,
 * like poppler's pdftotext, reads such a run back in reading order.
 */
const NAMES = [
  { script: "accented Latin", name: "Łukasz Żółć" },
  { script: "accented Latin", name: "José Müller" },
  { script: "Cyrillic", name: "Анна Иванова" },
  { script: "Greek", name: "Γιώργος Παπαδόπουλος" },
  { script: "Chinese", name: "李小龙" },
  { script: "Japanese", name: "山田太郎" },
  { script: "Japanese kana", name: "やまだ はなこ" },
  { script: "Korean", name: "김민수" },
  { script: "Arabic", name: "محمد علي" },
  { script: "Hebrew", name: "דוד לוי" },
];

describe("certificate and transcript PDFs in every script", () => {
  it.each(NAMES)("print a $script name on the certificate: $name", async (n) => {
    const pdf = await buildCertificatePdf(
      buildCertificate({ learnerName: n.name, courseTitle: n.name }),
    );
    const text = await lines(pdf);
    // The name, then the course title in another face.
    expect(text.filter((line) => line === n.name)).toHaveLength(2);
    expect(text.join("\n")).not.toContain("?");
  });

  it.each(NAMES)("print a $script name on the transcript: $name", async (n) => {
    const pdf = await buildTranscriptPdf(buildTranscript(n.name, n.name));
    const text = await lines(pdf);
    expect(text).toContain(n.name);
    expect(text.some((l) => l.startsWith(`Credo Academy · ${n.name} · page 1 of 1`))).toBe(true);
    expect(text.join("\n")).not.toContain("?");
  });

  it("embeds only the fonts the text needs", async () => {
    const latin = await buildCertificatePdf(buildCertificate({ learnerName: "Анна Иванова" }));
    expect(await embeddedFonts(latin)).toEqual([
      "Arimo-Bold",
      "Arimo-Regular",
      "Tinos-Italic",
      "Tinos-Regular",
    ]);
    const mixed = await buildCertificatePdf(
      buildCertificate({ learnerName: "李小龙", courseTitle: "김민수 · محمد علي" }),
    );
    expect(await embeddedFonts(mixed)).toEqual([
      "Arimo-Bold",
      "Arimo-Regular",
      "NanumGothic",
      "NanumGothicBold",
      "NotoNaskhArabic",
      "NotoNaskhArabic-Bold",
      "NotoSansSC-Regular",
      "Tinos-Italic",
      "Tinos-Regular",
    ]);
    const transcript = await buildTranscriptPdf(buildTranscript("Ada Lovelace"));
    expect(await embeddedFonts(transcript)).toEqual(["Arimo-Bold", "Arimo-Regular"]);
  });

  it("keeps a certificate small with subset fonts", async () => {
    const pdf = await buildCertificatePdf(buildCertificate({ learnerName: "李小龙 김민수" }));
    expect(pdf.byteLength).toBeLessThan(60_000);
  });

  it("prints a name typed with combining accents as the composed letters", async () => {
    const pdf = await buildCertificatePdf(
      buildCertificate({ learnerName: "Jose\u0301 Mu\u0308ller" }),
    );
    expect(await lines(pdf)).toContain("José Müller");
  });
});
