import type { Certificate, DateFormat, Transcript } from "../../../contract";
import { buildCertificatePdf, type CertificateAssets } from "./certificate-pdf";
import { buildTranscriptPdf } from "./transcript-pdf";

/** One PDF to draw: what the renderer's worker threads are handed. */
export type PdfJob =
  | {
      kind: "certificate";
      certificate: Certificate;
      assets: CertificateAssets;
    }
  | { kind: "transcript"; transcript: Transcript; dateFormat: DateFormat };

/** What each of the renderer's threads starts with (pdf-renderer.ts, pdf-worker.mjs). */
export interface PdfWorkerData {
  /** Draws only what nobody waits on: at the lowest priority. */
  inBackground: boolean;
}

export function renderPdf(job: PdfJob): Promise<Uint8Array> {
  return job.kind === "certificate"
    ? buildCertificatePdf(job.certificate, job.assets)
    : buildTranscriptPdf(job.transcript, job.dateFormat);
}
