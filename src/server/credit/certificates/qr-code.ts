import type { PDFPage, RGB } from "pdf-lib";
import QRCode from "qrcode";

/** Draws the QR code of `text` as vector squares, `size` points wide, quiet zone included. */
export function drawQrCode(
  page: PDFPage,
  text: string,
  options: { x: number; y: number; size: number; color: RGB },
) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const quiet = 2;
  const cell = options.size / (modules.size + quiet * 2);
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (!modules.get(row, col)) continue;
      page.drawRectangle({
        x: options.x + (col + quiet) * cell,
        // PDF y grows upwards; QR rows go down.
        y: options.y + options.size - (row + quiet + 1) * cell,
        width: cell + 0.02,
        height: cell + 0.02,
        color: options.color,
      });
    }
  }
}
