import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import {
  decodePDFRawStream,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  rgb,
} from "pdf-lib";
import { describe, expect, it } from "vitest";
import { embedPdfFonts } from "./pdf-fonts";
import { drawText } from "./pdf-text";

const require = createRequire(import.meta.url);

/** The font programs a PDF embeds, by font name (without the suffix pdf-lib adds). */
async function fontFiles(pdf: Uint8Array): Promise<Map<string, Uint8Array>> {
  const doc = await PDFDocument.load(pdf);
  const files = new Map<string, Uint8Array>();
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const file = object.get(PDFName.of("FontFile2"));
    if (!(file instanceof PDFRef)) continue;
    const stream = doc.context.lookup(file);
    if (!(stream instanceof PDFRawStream)) continue;
    const name = String(object.get(PDFName.of("FontName"))).replace(/^\/(.*)-\d+$/, "$1");
    files.set(name, decodePDFRawStream(stream).decode());
  }
  return files;
}

describe("PDF fonts", () => {
  it("embeds subset glyphs drawn exactly as the font draws them", async () => {
    const doc = await PDFDocument.create();
    const { serif } = await embedPdfFonts(doc, "", ["serif"]);
    const text = "of Completion Łukasz Żółć";
    drawText(doc.addPage(), text, { x: 10, y: 10, size: 12, font: serif, color: rgb(0, 0, 0) });
    const subset = fontkit.create((await fontFiles(await doc.save())).get("Tinos-Regular")!);
    const tinos = fontkit.create(
      readFileSync(require.resolve("@expo-google-fonts/tinos/400Regular/Tinos_400Regular.ttf")),
    );
    // The subset holds the glyphs in the order the text first uses them, after .notdef.
    const chars = [...new Set(text)];
    expect(chars.length).toBeGreaterThan(10);
    chars.forEach((char, i) => {
      const original = tinos.glyphForCodePoint(char.codePointAt(0)!);
      expect(subset.getGlyph(i + 1).path.toSVG(), char).toBe(original.path.toSVG());
    });
  });
});
