import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { fileTypeFromBuffer } from "file-type";
import {
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  PACKAGE_FILE_EXTENSION,
  PACKAGE_MAX_BYTES,
  PACKAGE_TYPES,
  THUMBNAIL_MAX_BYTES,
  THUMBNAIL_TYPES,
  VIDEO_MAX_BYTES,
  VIDEO_TYPES,
} from "../../../contract";
import type { Database } from "../../db/client";
import { withinImageBounds } from "../../lib/image-bounds";
import {
  ObjectIncompleteError,
  type ObjectStore,
  ObjectTooLargeError,
} from "../../storage/object-store";
import {
  fileContentMismatch,
  fileLargerThanDeclared,
  fileTooLarge,
  fileTypeNotAllowed,
  imageTooLarge,
  notAnIssuedObject,
  uploadIncomplete,
  uploadNotFinished,
  uploadNotFound,
} from "./objects.errors";
import { createObjectsRepository } from "./objects.repository";
import type { ObjectRow } from "./objects.table";
import { readVideoDuration } from "./video-duration";

export type ObjectKind = "thumbnail" | "video" | "logo" | "package";

/** An uploaded file as the rule of who may read it sees it. */
export interface ObjectRef {
  id: string;
  kind: ObjectKind;
}

/**
 * Whether a signed-in user may read an uploaded file: the rule belongs to the features whose
 * files they are (a course's thumbnail, a module's video), and is passed to the routes.
 */
export type ObjectAccess = "allow" | "locked" | "deny";

interface KindRule {
  maxBytes: number;
  types: readonly string[];
  /** The ending the file's name must have, when the kind is known by it. */
  fileExtension?: string;
  /**
   * Whether set-acl sniffs the real type from the first bytes. A package is not: a sniffer
   * names some zips by what they hold (an EPUB, a Word document), and the package's checks
   * when its module is saved read the whole archive and say precisely what is wrong.
   */
  sniff: boolean;
  /** Whether the image's sides must be within IMAGE_MAX_SIDE_PX: the PDFs draw it. */
  bounded?: boolean;
}

const RULES: Record<ObjectKind, KindRule> = {
  thumbnail: { maxBytes: THUMBNAIL_MAX_BYTES, types: THUMBNAIL_TYPES, sniff: true },
  video: { maxBytes: VIDEO_MAX_BYTES, types: VIDEO_TYPES, sniff: true },
  logo: { maxBytes: LOGO_MAX_BYTES, types: LOGO_TYPES, sniff: true, bounded: true },
  package: {
    maxBytes: PACKAGE_MAX_BYTES,
    types: PACKAGE_TYPES,
    fileExtension: PACKAGE_FILE_EXTENSION,
    sniff: false,
  },
};
/** Some encoders label MP4 files with these brands; they play as video/mp4. */
const TYPE_ALIASES: Record<string, string> = {
  "video/x-m4v": "video/mp4",
  "video/3gpp": "video/mp4",
};
const UPLOAD_URL_TTL_SECONDS = 60 * 60;
const SNIFF_BYTES = 4100;
const OBJECT_PATH_PREFIX = "/objects/uploads/";
const LOCAL_UPLOAD_PREFIX = "/api/objects/upload/";

/** The object id inside an object path (`/objects/uploads/<id>`), or null. */
function objectIdFromPath(path: string): string | null {
  const match = /^\/objects\/uploads\/([A-Za-z0-9_-]{24})$/.exec(path);
  return match?.[1] ?? null;
}

/** The object id inside an upload URL this portal issued (local path or presigned S3 URL). */
function objectIdFromUploadUrl(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url, "http://portal.invalid").pathname;
  } catch {
    return null;
  }
  const match = /\/(?:api\/objects\/upload|incoming)\/([A-Za-z0-9_-]{24})$/.exec(pathname);
  return match?.[1] ?? null;
}

/** Upload flow of ARCHITECTURE section 3: request a URL, PUT the bytes, then set-acl. */
export function createObjectsService({ db, store }: { db: Database; store: ObjectStore }) {
  const repo = createObjectsRepository(db);

  async function sniff(id: string, kind: ObjectKind, declaredType: string): Promise<string> {
    const rule = RULES[kind];
    if (!rule.sniff) return declaredType;
    // A bounded image is read whole (at most a megabyte): a JPEG's size may follow its metadata.
    const head = await store.readHead(id, rule.bounded ? rule.maxBytes : SNIFF_BYTES);
    const detected = await fileTypeFromBuffer(head);
    const mime = detected ? (TYPE_ALIASES[detected.mime] ?? detected.mime) : undefined;
    // The declared type is the browser's guess from the file name; only the bytes count.
    if (!mime || !rule.types.includes(mime)) throw fileContentMismatch();
    if (rule.bounded && !withinImageBounds(head)) throw imageTooLarge();
    return mime;
  }

  /** An upload may hold no more than it declared, and never more than its kind allows. */
  const maxBytesOf = (object: ObjectRow) =>
    Math.min(object.declaredSize, RULES[object.kind].maxBytes);
  const tooLarge = (object: ObjectRow) =>
    object.declaredSize < RULES[object.kind].maxBytes
      ? fileLargerThanDeclared()
      : fileTooLarge(RULES[object.kind].maxBytes);

  /** set-acl's answer: the object path, and a video's length as read from its file. */
  const answerOf = (object: ObjectRow) =>
    object.kind === "video"
      ? { objectPath: `${OBJECT_PATH_PREFIX}${object.id}`, durationSeconds: object.durationSeconds }
      : { objectPath: `${OBJECT_PATH_PREFIX}${object.id}` };

  async function reject(object: ObjectRow) {
    await store.delete(object.id).catch(() => {});
    await repo.transition(object.id, ["pending", "uploaded"], { status: "rejected" });
  }

  return {
    rules: RULES,

    async requestUpload(input: {
      kind: ObjectKind;
      fileName: string;
      contentType: string;
      size: number;
      ownerId: string;
    }): Promise<{ uploadURL: string }> {
      const rule = RULES[input.kind];
      if (!rule.types.includes(input.contentType)) throw fileTypeNotAllowed(input.kind);
      if (rule.fileExtension && !input.fileName.toLowerCase().endsWith(rule.fileExtension)) {
        throw fileTypeNotAllowed(input.kind);
      }
      if (input.size > rule.maxBytes) throw fileTooLarge(rule.maxBytes);
      const id = randomBytes(18).toString("base64url");
      await repo.insert({
        id,
        kind: input.kind,
        fileName: input.fileName,
        declaredType: input.contentType,
        declaredSize: input.size,
        ownerId: input.ownerId,
      });
      const remote = await store.createUploadUrl(id, {
        contentType: input.contentType,
        size: input.size,
        expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
      });
      return { uploadURL: remote ?? `${LOCAL_UPLOAD_PREFIX}${id}` };
    },

    /**
     * Receives the bytes for the local store, streaming to disk; exactly the declared size
     * is stored or nothing. A body that is cut off (the connection dropped at 90 %) or ends
     * short leaves no file and the upload pending, so the same URL can be sent again.
     */
    async receiveUpload(input: { id: string; userId: string; body: Readable }): Promise<void> {
      const object = await repo.findById(input.id);
      if (!object || object.status !== "pending" || object.ownerId !== input.userId) {
        throw uploadNotFound();
      }
      let size: number;
      try {
        size = await store.write(object.id, input.body, {
          maxBytes: maxBytesOf(object),
          contentType: object.declaredType,
          size: object.declaredSize,
        });
      } catch (err) {
        if (err instanceof ObjectTooLargeError) {
          await reject(object);
          throw tooLarge(object);
        }
        if (err instanceof ObjectIncompleteError || input.body.destroyed) throw uploadIncomplete();
        throw err;
      }
      try {
        const contentType = await sniff(object.id, object.kind, object.declaredType);
        await repo.transition(object.id, ["pending"], { status: "uploaded", size, contentType });
      } catch (err) {
        await reject(object);
        throw err;
      }
    },

    /**
     * set-acl: accepts only an upload this portal issued to this user, whose bytes are
     * all there and pass the size and real-type checks; returns its object path.
     */
    async finalize(input: {
      objectURL: string;
      userId: string;
    }): Promise<{ objectPath: string; durationSeconds?: number | null }> {
      const id = objectIdFromUploadUrl(input.objectURL);
      if (!id) throw notAnIssuedObject();
      const object = await repo.findById(id);
      if (!object || object.ownerId !== input.userId) throw notAnIssuedObject();
      if (object.status === "ready") return answerOf(object);
      if (object.status === "rejected") throw uploadNotFinished();
      if (!(await store.commitUpload(id))) throw uploadNotFinished();
      const stat = await store.stat(id);
      if (!stat || stat.size === 0) throw uploadNotFinished();
      // A presigned URL signs the declared length, but not every S3-compatible store
      // enforces it: the stored size is checked against the declaration here as well.
      if (stat.size > maxBytesOf(object)) {
        await reject(object);
        throw tooLarge(object);
      }
      if (stat.size !== object.declaredSize) {
        // Short of the declared size: a cut-off PUT that a lenient S3-compatible store kept.
        // Never usable; removed so the upload stays pending and its URL can be sent again.
        await store.delete(id);
        throw uploadNotFinished();
      }
      let contentType: string;
      try {
        contentType = await sniff(id, object.kind, object.declaredType);
      } catch (err) {
        await reject(object);
        throw err;
      }
      // A video's length comes from the file itself: it is what a module's stated length
      // and a learner's watching are measured against.
      const durationSeconds =
        object.kind === "video"
          ? await readVideoDuration(await store.readStream(id), { contentType, size: stat.size })
          : null;
      const ready = await repo.transition(id, ["pending", "uploaded"], {
        status: "ready",
        size: stat.size,
        contentType,
        durationSeconds,
      });
      if (ready) return answerOf(ready);
      // A set-acl sent again while this one ran (a double click, a retry) may have finished
      // first: the upload is ready all the same, and both are answered with its path.
      const now = await repo.findById(id);
      if (now?.status !== "ready") throw uploadNotFinished();
      return answerOf(now);
    },

    /** A ready object of the given kind behind an object path, or undefined. */
    async findReady(path: string, kind?: ObjectKind): Promise<ObjectRow | undefined> {
      const id = objectIdFromPath(path);
      if (!id) return undefined;
      const object = await repo.findById(id);
      if (!object || object.status !== "ready") return undefined;
      if (kind && object.kind !== kind) return undefined;
      return object;
    },

    /**
     * Runs `work` on a local file holding a ready object's bytes (a package's `.zip`, read
     * from its end); a temporary download from S3 is removed when `work` ends.
     */
    withLocalFile: <T>(object: ObjectRow, work: (path: string) => Promise<T>) =>
      store.withLocalFile(object.id, work),

    /** The whole of a small ready object (a logo, for a PDF to embed), as it was checked. */
    bytesOf: (object: ObjectRow) => store.readHead(object.id, RULES[object.kind].maxBytes),

    /** Removes objects from the store and the table (e.g. after a course is deleted). */
    async deleteByPaths(paths: (string | null | undefined)[]): Promise<void> {
      const ids = paths.map((p) => (p ? objectIdFromPath(p) : null)).filter((id) => id !== null);
      for (const id of ids) await store.delete(id);
      await repo.deleteMany(ids);
    },

    /** Whether the store still holds a ready object's bytes. */
    isStored: async (object: ObjectRow) => (await store.stat(object.id)) !== null,

    readUrl: (object: ObjectRow) =>
      store.createReadUrl(object.id, {
        contentType: object.contentType ?? object.declaredType,
        expiresInSeconds: 300,
      }),
    localRoot: () => store.localRoot ?? "",
  };
}

export type ObjectsService = ReturnType<typeof createObjectsService>;
