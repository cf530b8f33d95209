import type { Certificate, Transcript } from "../../../contract";
import { buildCertificatePdf } from "./certificate-pdf";
import { buildTranscriptPdf } from "./transcript-pdf";

/** One PDF to draw: what the renderer's worker threads are handed. */
export type PdfJob =
  | {
      kind: "certificate";
      certificate: Certificate;
      /** The responsible official's signature image, for a credit-ready certificate. */
      signature: Uint8Array | null;
    }
  | { kind: "transcript"; transcript: Transcript };

export function renderPdf(job: PdfJob): Promise<Uint8Array> {
  return job.kind === "certificate"
    ? buildCertificatePdf(job.certificate, job.signature)
    : buildTranscriptPdf(job.transcript);
}
