import { inflateSync } from "node:zlib";

/**
 * The text drawn in a PDF made by pdf-lib with the standard fonts, enough for tests: its
 * content streams inflated, and each `<hex> Tj` string decoded (WinAnsi is Latin-1 here).
 */
export function pdfText(pdf: Uint8Array): string {
  const raw = Buffer.from(pdf).toString("latin1");
  const texts: string[] = [];
  const streams = /\/FlateDecode[\s\S]*?>>\s*stream\r?\n/g;
  for (let match = streams.exec(raw); match; match = streams.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    let content: string;
    try {
      content = inflateSync(Buffer.from(raw.slice(start, end), "latin1")).toString("latin1");
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      texts.push(Buffer.from(hex[1]!, "hex").toString("latin1"));
    }
  }
  return texts.join("\n");
}
