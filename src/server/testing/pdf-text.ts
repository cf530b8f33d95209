import { Worker } from "node:worker_threads";

/**
 * The text of a PDF as pdf.js (Firefox's PDF viewer) extracts it, one line of the page per
 * line. Arabic or Hebrew drawn in one font reads back in reading order, as it was written.
 */
export function pdfText(pdf: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./pdf-text-worker.mjs", import.meta.url), {
      workerData: pdf,
    });
    worker.once("message", (text: string) => resolve(text));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`pdf text extraction stopped with code ${code}`));
    });
  });
}
