import { PDFDocument, type PDFPage, rgb } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { embedPdfFonts } from "./pdf-fonts";
import { drawText, isolate, type Typeface, textWidth, wrapText } from "./pdf-text";

/** What a line draws: each run's text, as handed to fontkit, and its font, left to right. */
function runsOf(text: string, face: Typeface) {
  const runs: { text: string; font: string }[] = [];
  const page = {
    drawText: (t: string, options: { font: { name: string } }) =>
      runs.push({ text: t, font: options.font.name.replace(/-\d+$/, "") }),
  } as unknown as PDFPage;
  drawText(page, text, { x: 0, y: 0, size: 10, font: face, color: rgb(0, 0, 0) });
  return runs;
}

describe("PDF text layout", () => {
  let sans: Typeface;
  beforeAll(async () => {
    const doc = await PDFDocument.create();
    ({ sans } = await embedPdfFonts(doc, "محمد 李小龙 김민수", ["sans"]));
  });

  it("draws each script with a font that has it, and spaces within a script with its font", () => {
    expect(runsOf("Ana 李小龙 山田 · 김 민수", sans)).toEqual([
      { text: "Ana ", font: "Arimo-Regular" },
      { text: "李小龙 山田", font: "NotoSansSC-Regular" },
      { text: " · ", font: "Arimo-Regular" },
      { text: "김", font: "NanumGothic" },
      { text: " ", font: "Arimo-Regular" },
      { text: "민수", font: "NanumGothic" },
    ]);
  });

  it("draws an Arabic name as one run for fontkit to shape and lay out right to left", () => {
    expect(runsOf("محمد علي", sans)).toEqual([{ text: "محمد علي", font: "NotoNaskhArabic" }]);
  });

  it("orders right-to-left words, numbers and brackets as the bidirectional algorithm does", () => {
    // In Latin text, an Arabic phrase reads right to left, the number after it included.
    expect(runsOf("Course: مقدمة في البيانات 2", sans).map((r) => r.text)).toEqual([
      "Course: ",
      "2",
      " ",
      "مقدمة في البيانات",
    ]);
    // In Arabic text, numbers still read left to right and brackets face the other way.
    expect(runsOf("دورة 101 (أ)", sans).map((r) => r.text)).toEqual([
      "(",
      "أ",
      ")",
      " ",
      "101",
      "دورة ",
    ]);
    // Arabic-Indic digits are handed to fontkit reversed, since it would reverse them.
    expect(runsOf("١٢٣ محمد", sans).map((r) => r.text)).toEqual(["محمد", " ", "٣٢١"]);
  });

  it("keeps an English sentence left to right around an Arabic field put into it", () => {
    // Without the isolate, the line would start with Arabic and read right to left.
    expect(runsOf(`${isolate("طب")} · 2 hours of study`, sans)).toEqual([
      { text: "طب", font: "NotoNaskhArabic" },
      { text: " · 2 hours of study", font: "Arimo-Regular" },
    ]);
    expect(runsOf("طب · 2 hours of study", sans).map((r) => r.text)).toEqual([
      "hours of study",
      " ",
      "2",
      " · ",
      "طب",
    ]);
  });

  it("measures a line as the sum of its runs", () => {
    const mixed = textWidth("Ana 李小龙", sans, 10);
    expect(mixed).toBeCloseTo(textWidth("Ana ", sans, 10) + textWidth("李小龙", sans, 10), 5);
  });

  it("breaks Chinese and Japanese text between characters, Latin text at spaces", () => {
    const title = "臨床倫理学入門：患者の権利と医療者の責任について";
    const lines = wrapText(title, sans, 10, 60);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join("")).toBe(title);
    for (const line of lines) expect(textWidth(line, sans, 10)).toBeLessThanOrEqual(60);
    // Closing punctuation stays with the character before it.
    expect(lines.some((line) => line.startsWith("："))).toBe(false);

    expect(wrapText("Clinical  Ethics\nfor Nurses", sans, 10, 75)).toEqual([
      "Clinical Ethics",
      "for Nurses",
    ]);
  });

  it("cuts a word wider than the line, by whole letters", () => {
    const [line] = wrapText("Zażółćgęśląjaźńzażółćgęśląjaźń", sans, 10, 60);
    expect(line).toMatch(/…$/);
    expect(textWidth(line!, sans, 10)).toBeLessThanOrEqual(60);
    expect("Zażółćgęśląjaźńzażółćgęśląjaźń".startsWith(line!.slice(0, -1))).toBe(true);
  });
});
