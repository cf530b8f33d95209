import type { PDFFont, PDFPage, RGB } from "pdf-lib";

/** Characters beyond Latin-1 that WinAnsi (the standard PDF fonts' encoding) still has. */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** Latin letters with strokes, which Unicode does not decompose into a base letter. */
const STROKED: Record<string, string> = {
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ħ: "H",
  ħ: "h",
  ı: "i",
  Ŧ: "T",
  ŧ: "t",
};

const encodable = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return (
    (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char)
  );
};

/**
 * Text the standard PDF fonts can draw: accents outside Latin-1 lose their mark (Ł stays
 * readable as L), other scripts become '?'. The fonts are built into every PDF reader,
 * so the file needs no embedded font; names in other scripts are a known limit here.
 */
export function pdfSafe(text: string): string {
  let out = "";
  for (const char of text.replace(/\s+/g, " ")) {
    if (encodable(char)) {
      out += char;
      continue;
    }
    const base = STROKED[char] ?? char.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
    out += [...base].every(encodable) && base ? base : "?";
  }
  return out;
}

/** Splits text into lines no wider than `width` at this size. */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of pdfSafe(text).split(" ")) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width || !line) {
      line = candidate;
    } else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  // A single word wider than the line is cut rather than drawn over the margin.
  return lines.map((l) => {
    let cut = l;
    while (cut.length > 1 && font.widthOfTextAtSize(cut, size) > width) cut = cut.slice(0, -1);
    return cut === l ? l : `${cut.slice(0, -1)}…`;
  });
}

/** Draws text centred on `centerX`. */
export function drawCentered(
  page: PDFPage,
  text: string,
  options: { y: number; size: number; font: PDFFont; color: RGB; centerX: number },
) {
  const safe = pdfSafe(text);
  const width = options.font.widthOfTextAtSize(safe, options.size);
  page.drawText(safe, {
    x: options.centerX - width / 2,
    y: options.y,
    size: options.size,
    font: options.font,
    color: options.color,
  });
}

/** "November 21, 2026" in UTC: a server has no viewer's time zone. */
export function longDate(date: Date | string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(date),
  );
}
