import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  certificateCodeParamSchema,
  certificateFileName,
  certificateSchema,
  type DateFormat,
  revokeCertificateBodySchema,
  transcriptSchema,
  verifyCertificateResponseSchema,
} from "../../../contract";
import { errorResponses, fileAnswer } from "../../openapi/responses";
import { requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import type { CertificateAssetsOf } from "./certificate-assets";
import type { CertificatesService } from "./certificates.service";
import type { PdfRenderer } from "./pdf-renderer";
import { transcriptCsvLines, transcriptFileName } from "./transcript-csv";

const tags = ["certificates"];
const idParams = z.object({ id: z.string().min(1).max(64) });
/** A transcript: administrators read anyone's, a learner only their own. */
const transcriptRefusals = ["certificates.not_your_transcript", "learners.not_found"] as const;
const ATTACHMENT = { "content-disposition": "`attachment; filename=…; filename*=UTF-8''…`" };

/** RFC 6266: an ASCII fallback name and the exact UTF-8 one. */
function attachment(reply: FastifyReply, fileName: string) {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  reply.header(
    "content-disposition",
    `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  );
}

const viewerOf = (request: Parameters<typeof sessionOf>[0]) => {
  const { id, role } = sessionOf(request).user;
  return { id, role };
};

export interface CertificatesRoutesDeps {
  certificates: CertificatesService;
  pdfs: PdfRenderer;
  /** What a certificate's PDF draws beside its record (certificate-assets.ts). */
  assetsOf: CertificateAssetsOf;
  /** The organisation's settings: the portal's date format, for transcripts. */
  organisation: { profile(): Promise<{ dateFormat: DateFormat }> };
}

export function registerCertificatesRoutes(parent: FastifyInstance, deps: CertificatesRoutesDeps) {
  const { certificates, pdfs } = deps;
  const app = parent.withTypeProvider<ZodTypeProvider>();

  // Public: anyone holding a certificate may check it, signed in or not. Rate limited per
  // address so the code space cannot be walked; every code of a code's length that names
  // nothing gets the same 404, so a malformed code tells nothing either. Longer text is no
  // code at all, and is told so.
  app.get(
    "/api/certificates/verify/:code",
    {
      schema: {
        tags,
        params: z.object({ code: certificateCodeParamSchema }),
        response: {
          200: verifyCertificateResponseSchema,
          ...errorResponses(["certificates.not_found"]),
        },
      },
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
    },
    async (request) => ({ certificate: await certificates.verify(request.params.code) }),
  );

  app.get(
    "/api/certificates/mine",
    {
      schema: { tags, response: { 200: z.array(certificateSchema) } },
      preValidation: requireRole("learner"),
    },
    async (request) => certificates.mine(sessionOf(request).user.id),
  );

  app.get(
    "/api/certificates/:id/pdf",
    {
      schema: {
        tags,
        params: idParams,
        response: {
          200: fileAnswer("The certificate", ["application/pdf"], ATTACHMENT),
          ...errorResponses(["certificates.not_found"]),
        },
      },
      preValidation: requireUser,
      config: { expensive: true },
    },
    async (request, reply) => {
      const certificate = await certificates.forViewer(request.params.id, viewerOf(request));
      const pdf = await pdfs.certificate(certificate, await deps.assetsOf(certificate));
      attachment(reply, certificateFileName(certificate.courseTitle, "pdf"));
      return reply.type("application/pdf").send(pdf);
    },
  );

  app.post(
    "/api/certificates/:id/revoke",
    {
      schema: {
        tags,
        params: idParams,
        body: revokeCertificateBodySchema,
        response: {
          200: certificateSchema,
          ...errorResponses(["certificates.not_found", "certificates.already_revoked"]),
        },
      },
      preValidation: requireRole("admin"),
    },
    async (request) =>
      certificates.revoke({
        id: request.params.id,
        reason: request.body.reason,
        actor: viewerOf(request),
      }),
  );

  // Transcripts: administrators read anyone's, a learner only their own.
  app.get(
    "/api/learners/:id/transcript",
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: transcriptSchema, ...errorResponses(transcriptRefusals) },
      },
      preValidation: requireUser,
    },
    async (request) => certificates.transcript(request.params.id, viewerOf(request)),
  );

  app.get(
    "/api/learners/:id/transcript.csv",
    {
      schema: {
        tags,
        params: idParams,
        response: {
          200: fileAnswer("The transcript", ["text/csv"], ATTACHMENT),
          ...errorResponses(transcriptRefusals),
        },
      },
      preValidation: requireUser,
      config: { expensive: true },
    },
    async (request, reply) => {
      const transcript = await certificates.transcript(request.params.id, viewerOf(request));
      attachment(reply, transcriptFileName(transcript.learner.name, "csv"));
      // A BOM so spreadsheet programs read the names as UTF-8.
      return reply
        .type("text/csv; charset=utf-8")
        .send(Readable.from(["\ufeff", ...transcriptCsvLines(transcript)]));
    },
  );

  app.get(
    "/api/learners/:id/transcript.pdf",
    {
      schema: {
        tags,
        params: idParams,
        response: {
          200: fileAnswer("The transcript", ["application/pdf"], ATTACHMENT),
          ...errorResponses(transcriptRefusals),
        },
      },
      preValidation: requireUser,
      config: { expensive: true },
    },
    async (request, reply) => {
      const transcript = await certificates.transcript(request.params.id, viewerOf(request));
      const pdf = await pdfs.transcript(transcript, (await deps.organisation.profile()).dateFormat);
      attachment(reply, transcriptFileName(transcript.learner.name, "pdf"));
      return reply.type("application/pdf").send(pdf);
    },
  );
}
