import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * The text of a PDF as pdf.js (Firefox's PDF viewer) extracts it, one line of the page per
 * line. Arabic or Hebrew drawn in one font reads back in reading order, as it was written.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  // pdf.js takes ownership of the bytes it is given, so it gets a copy.
  const doc = await getDocument({
    data: new Uint8Array(pdf),
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const lines: string[] = [];
  try {
    for (let number = 1; number <= doc.numPages; number += 1) {
      const page = await doc.getPage(number);
      let line = "";
      for (const item of (await page.getTextContent()).items) {
        if (!("str" in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = "";
        }
      }
      if (line) lines.push(line);
    }
  } finally {
    await doc.destroy();
  }
  return lines.join("\n");
}
