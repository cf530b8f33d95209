// Extracts a PDF's text with pdf.js on its own thread: pdf.js installs polyfills over
// built-ins, which slow down the process that loads it (the browser tests' runner, whose
// accessibility checks took three times as long afterwards).
import { parentPort, workerData } from "node:worker_threads";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

// pdf.js takes ownership of the bytes it is given, so it gets a copy.
const doc = await getDocument({
  data: new Uint8Array(workerData),
  isEvalSupported: false,
  useSystemFonts: false,
  verbosity: 0,
}).promise;
const lines = [];
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
parentPort.postMessage(lines.join("\n"));
