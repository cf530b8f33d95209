import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  CAPTION_MAX_BYTES,
  captionCoverageSchema,
  captionLanguageSchema,
  captionUploadBodySchema,
  moduleIdSchema,
  moduleMediaSchema,
  TRANSCRIPT_MAX_CHARS,
  transcriptBodySchema,
} from "../../../contract";
import { errorResponses, fileAnswer } from "../../openapi/responses";
import { requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import type { CaptionsService } from "./captions.service";

const tags = ["captions"];
const admin = requireRole("admin");
const courseParams = z.object({ id: z.string().min(1).max(64) });
const moduleParams = courseParams.extend({ moduleId: moduleIdSchema });
const trackParams = moduleParams.extend({ language: captionLanguageSchema });
/** A caption file travels base64-encoded in JSON: 4/3 of its size plus the other fields. */
const UPLOAD_BODY_LIMIT = Math.ceil(CAPTION_MAX_BYTES / 3) * 4 + 16 * 1024;
/** A transcript at its character limit, in a script of 3-byte UTF-8 characters, fits. */
const TRANSCRIPT_BODY_LIMIT = TRANSCRIPT_MAX_CHARS * 4 + 16 * 1024;

export interface CaptionsRoutesDeps {
  captions: CaptionsService;
}

/** The module a caption or transcript belongs to, for an administrator. */
const moduleRefusals = ["courses.not_found", "courses.module_not_found"] as const;
/** Who may watch the module: administrators, and its learners once it is unlocked. */
const watchRefusals = [...moduleRefusals, "captions.module_locked"] as const;

const keyOf = (params: { id: string; moduleId: string }) => ({
  courseId: params.id,
  moduleId: params.moduleId,
});

/** Captions and transcripts of module videos: administrators write, learners read. */
export function registerCaptionsRoutes(parent: FastifyInstance, deps: CaptionsRoutesDeps) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { captions } = deps;
  const base = "/api/courses/:id/modules/:moduleId";

  app.get(
    "/api/courses/:id/captions",
    {
      schema: {
        tags,
        params: courseParams,
        response: { 200: captionCoverageSchema, ...errorResponses(["courses.not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => captions.coverage(request.params.id),
  );
  app.get(
    `${base}/media`,
    {
      schema: {
        tags,
        params: moduleParams,
        response: { 200: moduleMediaSchema, ...errorResponses(watchRefusals) },
      },
      preValidation: requireUser,
    },
    async (request) => captions.media(sessionOf(request).user, keyOf(request.params)),
  );
  app.get(
    `${base}/captions/:language.vtt`,
    {
      schema: {
        tags,
        params: trackParams,
        response: {
          200: fileAnswer("The track as WebVTT", ["text/vtt"]),
          ...errorResponses([...watchRefusals, "captions.not_found"]),
        },
      },
      preValidation: requireUser,
    },
    async (request, reply) => {
      const { content } = await captions.file(
        sessionOf(request).user,
        keyOf(request.params),
        request.params.language,
      );
      // The address changes with each replacement (?v=), so the browser may keep a copy.
      return reply
        .type("text/vtt; charset=utf-8")
        .header("cache-control", "private, max-age=300")
        .header("x-content-type-options", "nosniff")
        .send(content);
    },
  );
  app.put(
    `${base}/captions/:language`,
    {
      schema: {
        tags,
        params: trackParams,
        body: captionUploadBodySchema,
        response: {
          200: moduleMediaSchema,
          ...errorResponses([
            ...moduleRefusals,
            "captions.not_webvtt",
            "captions.too_large",
            "captions.invalid_file",
            "captions.too_many",
          ]),
        },
      },
      preValidation: admin,
      bodyLimit: UPLOAD_BODY_LIMIT,
    },
    async (request) =>
      captions.upload(keyOf(request.params), request.params.language, request.body),
  );
  app.delete(
    `${base}/captions/:language`,
    {
      schema: {
        tags,
        params: trackParams,
        response: {
          200: moduleMediaSchema,
          ...errorResponses([...moduleRefusals, "captions.not_found"]),
        },
      },
      preValidation: admin,
    },
    async (request) => captions.removeTrack(keyOf(request.params), request.params.language),
  );
  app.put(
    `${base}/transcript`,
    {
      schema: {
        tags,
        params: moduleParams,
        body: transcriptBodySchema,
        response: { 200: moduleMediaSchema, ...errorResponses(moduleRefusals) },
      },
      preValidation: admin,
      bodyLimit: TRANSCRIPT_BODY_LIMIT,
    },
    async (request) => captions.saveTranscript(keyOf(request.params), request.body.transcript),
  );
}
