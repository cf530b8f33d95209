import { escapeHtml } from "./certificate-html";

/**
 * A QR code as inline SVG markup: one path of unit squares, a white quiet zone, no
 * namespace or outside reference (the certificate file must stay self-contained). The
 * address it encodes is also kept in `data-verify-url`, for people and tests alike.
 */
export function qrSvgMarkup(
  size: number,
  isDark: (row: number, col: number) => boolean,
  text: string,
): string {
  const quiet = 2;
  let path = "";
  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size; col += 1) {
      if (isDark(row, col)) path += `M${col} ${row}h1v1h-1z`;
    }
  }
  const full = size + quiet * 2;
  return `<svg class="qr" viewBox="${-quiet} ${-quiet} ${full} ${full}" shape-rendering="crispEdges" role="img" aria-label="QR code of the verification address" data-verify-url="${escapeHtml(text)}"><rect x="${-quiet}" y="${-quiet}" width="${full}" height="${full}" fill="#ffffff"/><path d="${path}" fill="#1f1d2b"/></svg>`;
}

/** The QR code of `text`; the encoder loads on first use, off the app's first load. */
export async function qrSvg(text: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  return qrSvgMarkup(modules.size, (row, col) => Boolean(modules.get(row, col)), text);
}
