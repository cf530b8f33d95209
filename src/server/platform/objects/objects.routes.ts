import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  objectPathAnswerSchema,
  setAclBodySchema,
  THUMBNAIL_TYPES,
  uploadRequestBodySchema,
  uploadUrlSchema,
  VIDEO_TYPES,
} from "../../../contract";
import { emptyAnswer, errorAnswer, errorResponses, fileAnswer } from "../../openapi/responses";
import type { ResolvedSession } from "../../people";
import { forbidden } from "../../plugins/errors";
import { requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import { objectNotFound } from "./objects.errors";
import type { ObjectAccess, ObjectsService } from "./objects.service";
import type { ObjectRow } from "./objects.table";

export interface ObjectsRoutesOptions {
  objects: ObjectsService;
  access(session: ResolvedSession, object: ObjectRow): Promise<ObjectAccess>;
  /** The catalogue: a published course's thumbnail, ready to serve; none for any other. */
  courseImages: { publishedImage(courseId: string): Promise<ObjectRow | undefined> };
}

/** The only types the portal's origin ever serves inline: checked images and videos. */
const INLINE_TYPES = new Set<string>([...THUMBNAIL_TYPES, ...VIDEO_TYPES]);
const OBJECT_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
const idParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{24}$/, "Invalid object id") });
const tags = ["objects"];
/**
 * Read size of object downloads. @fastify/send passes `highWaterMark: null` when none
 * is given, and on Node 20 that makes fs streams read 16 KiB at a time: a thread-pool round trip
 * and a socket write per 16 KiB held video ranges to about half the MB/s of 256 KiB reads.
 * Memory stays bounded: about two chunks per open stream (~25 MB for 50 streams).
 * (@fastify/static's option types omit it; send() honours it.)
 */
const FILE_STREAM = { highWaterMark: 256 * 1024 };
/** What an object download is sent as: its checked type, or a download of bytes. */
const SERVED_TYPES: [string, ...string[]] = ["application/octet-stream", ...INLINE_TYPES];

const objectHeaders = {
  "accept-ranges": "`bytes`",
  etag: "Sent back in `If-None-Match` for a 304",
  "content-disposition": "`inline` or `attachment`",
};

export function registerObjectsRoutes(parent: FastifyInstance, options: ObjectsRoutesOptions) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { objects } = options;

  /** An object's bytes as a checked image or video inline, anything else as a download. */
  async function serve(
    object: ObjectRow,
    reply: FastifyReply,
    options: { cacheControl: string; ranges: boolean },
  ) {
    const remote = await objects.readUrl(object);
    // Bytes gone from under a ready row (removed by hand, a database restored without its
    // files) are a missing file, as S3 answers for its own, not a failure of the portal.
    if (!remote && !(await objects.isStored(object))) throw objectNotFound();
    reply.header("cache-control", options.cacheControl);
    reply.header("x-content-type-options", "nosniff");
    const inline = INLINE_TYPES.has(object.contentType ?? "");
    // Anything else would be a file a browser might render on the portal's origin.
    reply.header("content-disposition", inline ? "inline" : "attachment");
    // Opened directly, a file is a sandboxed document: no script, no plugin, no framing.
    reply.header("content-security-policy", OBJECT_CSP);
    if (remote) return reply.redirect(remote, 302);
    reply.type(inline ? object.contentType! : "application/octet-stream");
    return reply.sendFile(object.id, objects.localRoot(), {
      contentType: false,
      acceptRanges: options.ranges,
      etag: true,
      lastModified: true,
      cacheControl: false,
      dotfiles: "deny",
      ...FILE_STREAM,
    });
  }

  app.post(
    "/api/objects/upload",
    {
      schema: {
        tags,
        body: uploadRequestBodySchema,
        response: {
          200: uploadUrlSchema,
          ...errorResponses(["uploads.type_not_allowed", "uploads.too_large"]),
        },
      },
      preValidation: requireRole("admin"),
    },
    async (request) =>
      objects.requestUpload({ ...request.body, ownerId: sessionOf(request).user.id }),
  );

  // The local store's PUT target: raw bytes, streamed to disk, never parsed or buffered.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
    scope.withTypeProvider<ZodTypeProvider>().put(
      "/api/objects/upload/:id",
      {
        schema: {
          tags,
          params: idParams,
          response: {
            200: z.object({ ok: z.boolean() }),
            ...errorResponses([
              "uploads.not_found",
              "uploads.incomplete",
              "uploads.too_large",
              "uploads.larger_than_declared",
              "uploads.content_mismatch",
            ]),
          },
        },
        preValidation: requireRole("admin"),
        config: { allowNonJsonBody: true },
      },
      async (request, reply) => {
        try {
          await objects.receiveUpload({
            id: request.params.id,
            userId: sessionOf(request).user.id,
            body: request.raw,
          });
        } catch (err) {
          // The rest of a refused body is not read: close the connection after the reply.
          reply.header("connection", "close");
          throw err;
        }
        return { ok: true };
      },
    );
  });

  app.put(
    "/api/objects/set-acl",
    {
      schema: {
        tags,
        body: setAclBodySchema,
        response: {
          200: objectPathAnswerSchema,
          ...errorResponses([
            "uploads.not_issued",
            "uploads.not_finished",
            "uploads.too_large",
            "uploads.larger_than_declared",
            "uploads.content_mismatch",
          ]),
        },
      },
      preValidation: requireRole("admin"),
    },
    async (request) =>
      objects.finalize({ objectURL: request.body.objectURL, userId: sessionOf(request).user.id }),
  );

  app.get(
    "/objects/uploads/:id",
    {
      schema: {
        tags,
        params: idParams,
        response: {
          200: fileAnswer(
            "The object: an image or video inline, anything else as a download",
            SERVED_TYPES,
            objectHeaders,
          ),
          206: fileAnswer("The range a `Range` header asked for", SERVED_TYPES, {
            "content-range": "`bytes <first>-<last>/<size>`",
          }),
          302: emptyAnswer("With S3 storage: to a short-lived presigned URL of the object", {
            location: "The presigned URL",
          }),
          304: emptyAnswer("Not modified since the `If-None-Match` or `If-Modified-Since` given"),
          416: errorAnswer(416, ["request.invalid"]),
          ...errorResponses(["objects.not_found", "objects.module_locked"]),
        },
      },
      preValidation: requireUser,
    },
    async (request, reply) => {
      const object = await objects.findReady(`/objects/uploads/${request.params.id}`);
      if (!object) throw objectNotFound();
      const verdict = await options.access(sessionOf(request), object);
      if (verdict === "locked")
        throw forbidden(
          "objects.module_locked",
          "Complete the previous module to unlock this video.",
        );
      if (verdict === "deny") throw objectNotFound();
      return serve(object, reply, { cacheControl: "private, max-age=300", ranges: true });
    },
  );

  // Public (`courseImagePath`): a published course's image, the achievement's image in its Open Badges
  // credentials, which wallets show to anyone. Its address names the course, so it follows
  // the course's current thumbnail; anything but a published course's is not found.
  app.get(
    "/objects/course-images/:courseId",
    {
      schema: {
        tags,
        params: z.object({ courseId: z.string().min(1).max(64) }),
        response: {
          200: fileAnswer("The course's thumbnail", THUMBNAIL_TYPES, {
            etag: "Sent back in `If-None-Match` for a 304",
          }),
          302: emptyAnswer("With S3 storage: to a short-lived presigned URL of the image", {
            location: "The presigned URL",
          }),
          304: emptyAnswer("Not modified since the `If-None-Match` or `If-Modified-Since` given"),
          ...errorResponses(["objects.not_found"]),
        },
      },
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const object = await options.courseImages.publishedImage(request.params.courseId);
      if (!object) throw objectNotFound();
      return serve(object, reply, { cacheControl: "public, max-age=300", ranges: false });
    },
  );
}
