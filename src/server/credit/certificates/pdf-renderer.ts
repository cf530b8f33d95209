import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import { LRUCache } from "lru-cache";
import Piscina from "piscina";
import { type Certificate, type DateFormat, MESSAGES, type Transcript } from "../../../contract";
import { appError } from "../../plugins/errors";
import type { CertificateAssets } from "./certificate-pdf";
import type { PdfJob, PdfWorkerData } from "./pdf-jobs";

/**
 * Draws PDFs on worker threads, so a learner downloading certificates and transcripts never
 * holds up anyone else's requests: drawing a page with its fonts and QR code is pure CPU.
 */
export interface PdfRenderer {
  /**
   * A certificate's PDF. An issued certificate changes only when it is revoked, so its
   * PDF is kept (by its content, which includes the revocation) and drawn once. One drawn
   * `inBackground` (for a mail nobody is waiting on) yields the processor to requests.
   */
  certificate(
    certificate: Certificate,
    assets: CertificateAssets,
    options?: { inBackground?: boolean },
  ): Promise<Buffer>;
  transcript(transcript: Transcript, dateFormat: DateFormat): Promise<Buffer>;
  close(): Promise<void>;
}

export interface PdfRendererOptions {
  /** Worker threads; by default one fewer than the cores, and at least one. */
  threads?: number;
  /** The certificate PDFs kept in memory, in bytes (about 20 KB each). */
  cacheBytes?: number;
}

/**
 * Jobs waiting for a thread. Each user has at most two downloads in flight (the expensive
 * answers limit), so a full queue means the portal as a whole is overloaded: it answers 503
 * and the client retries, rather than holding ever more requests open.
 */
const MAX_QUEUED_JOBS = 500;

const threadPool = (maxThreads: number, inBackground: boolean) =>
  new Piscina<PdfJob, Uint8Array>({
    filename: new URL("./pdf-worker.mjs", import.meta.url).href,
    // Threads start on the first PDF: most instances of the app never draw one.
    minThreads: 0,
    maxThreads,
    idleTimeout: 60_000,
    maxQueue: MAX_QUEUED_JOBS,
    workerData: { inBackground } satisfies PdfWorkerData,
  });

export function createPdfRenderer(options: PdfRendererOptions = {}): PdfRenderer {
  const pool = threadPool(options.threads ?? Math.max(1, availableParallelism() - 1), false);
  // Certificates drawn for their mails: a learner completing a course is answered before
  // its mail is drawn, and under load a course completed every few milliseconds would
  // otherwise give a processor to mails. One thread, at the lowest priority (pdf-worker.mjs).
  const background = threadPool(1, true);
  const cache = new LRUCache<string, Buffer>({
    maxSize: options.cacheBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (pdf) => pdf.byteLength,
  });
  // Two downloads of one certificate at once draw it once. A download does not wait for
  // the same certificate drawn in the background, which may be waiting for a processor.
  const drawing = new Map<string, Promise<Buffer>>();

  const render = async (job: PdfJob, on = pool): Promise<Buffer> => {
    if (on.queueSize >= MAX_QUEUED_JOBS) {
      throw appError(503, "system.unavailable", MESSAGES.unavailable, { "retry-after": "5" });
    }
    const pdf = await on.run(job);
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  };

  return {
    async certificate(certificate, assets, { inBackground = false } = {}) {
      // The signature and logo are part of the key through their ids: stored images never
      // change. The date format is the portal's, which an administrator may change.
      const key = createHash("sha256")
        .update(JSON.stringify([certificate, assets.dateFormat]))
        .digest("base64url");
      const cached = cache.get(key);
      if (cached) return cached;
      const drawingKey = `${inBackground ? "background" : "now"}:${key}`;
      const pending = drawing.get(drawingKey);
      if (pending) return pending;
      const job = render(
        { kind: "certificate", certificate, assets },
        inBackground ? background : pool,
      )
        .then((pdf) => {
          cache.set(key, pdf);
          return pdf;
        })
        .finally(() => drawing.delete(drawingKey));
      drawing.set(drawingKey, job);
      return job;
    },
    transcript: (transcript, dateFormat) => render({ kind: "transcript", transcript, dateFormat }),
    close: async () => {
      await Promise.all([pool.destroy(), background.destroy()]);
    },
  };
}
