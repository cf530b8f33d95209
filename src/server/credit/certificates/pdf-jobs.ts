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

export function renderPdf(job: PdfJob): Promise<Uint8Array> {
  return job.kind === "certificate"
    ? buildCertificatePdf(job.certificate, job.assets)
    : buildTranscriptPdf(job.transcript, job.dateFormat);
}
