import {
  CAPTION_MAX_BYTES,
  CAPTIONS_PER_MODULE_MAX,
  type CaptionCoverage,
  type CaptionTrack,
  type CaptionUploadBody,
  isModuleUnlocked,
  type ModuleMedia,
} from "../../../contract";
import type { Database } from "../../db/client";
import { databaseRefusal, FOREIGN_KEY_VIOLATION } from "../../db/refusals";
import type { CoursesService } from "../courses/courses.service";
import {
  badCaptionFile,
  captionTooLarge,
  courseNotFound,
  moduleLocked,
  moduleNotFound,
  notVtt,
  tooManyTracks,
  trackNotFound,
} from "./captions.errors";
import { createCaptionsRepository } from "./captions.repository";
import { validateVtt } from "./vtt";

export interface CaptionsServiceDeps {
  db: Database;
  courses: Pick<CoursesService, "findRow" | "moduleIds">;
  enrollments: {
    completedModules(userId: string, courseId: string): Promise<string[] | null>;
  };
}

/** Who asks: administrators see every module; learners what they may watch. */
type Viewer = { id: string; role: "admin" | "learner" };

type ModuleKey = { courseId: string; moduleId: string };

/** The address a <track> loads; the version changes when the file is replaced. */
const captionSrc = (key: ModuleKey, language: string, updatedAt: Date) =>
  `/api/courses/${encodeURIComponent(key.courseId)}/modules/${encodeURIComponent(key.moduleId)}/captions/${encodeURIComponent(language)}.vtt?v=${updatedAt.getTime()}`;

/**
 * Caption tracks and transcripts of module videos (WCAG 2.1 SC 1.2.2). Administrators write
 * them; a learner reads them under the rule that guards the module's video: enrolled in the
 * published course and the module unlocked, so captions never reveal a module early.
 */
export function createCaptionsService(deps: CaptionsServiceDeps) {
  const { db } = deps;
  const repo = createCaptionsRepository(db);

  async function moduleOf(key: ModuleKey) {
    const course = await deps.courses.findRow(key.courseId);
    if (!course) throw courseNotFound();
    const order = await deps.courses.moduleIds(key.courseId);
    if (!order.includes(key.moduleId)) throw moduleNotFound();
    return { course, order };
  }

  /** The video's rule (see enrollments/object-access.ts), answered as the course player expects. */
  async function assertCanWatch(viewer: Viewer, key: ModuleKey) {
    if (viewer.role === "admin") {
      await moduleOf(key);
      return;
    }
    const course = await deps.courses.findRow(key.courseId);
    const completed = course?.isPublished
      ? await deps.enrollments.completedModules(viewer.id, key.courseId)
      : null;
    // Not enrolled reads as not found, as GET /api/courses/{id} answers it.
    if (!course || !completed) throw courseNotFound();
    const order = await deps.courses.moduleIds(key.courseId);
    if (!order.includes(key.moduleId)) throw moduleNotFound();
    if (!isModuleUnlocked(order, key.moduleId, completed)) throw moduleLocked();
  }

  async function mediaOf(key: ModuleKey): Promise<ModuleMedia> {
    const tracks = await repo.tracksOf(key);
    const captions: CaptionTrack[] = tracks.map((t) => ({
      language: t.language,
      label: t.label,
      cues: t.cues,
      src: captionSrc(key, t.language, t.updatedAt),
      updatedAt: t.updatedAt.toISOString(),
    }));
    return { captions, transcript: await repo.transcriptOf(key) };
  }

  return {
    /** The module's caption tracks and transcript, for the player and the admin dialog. */
    async media(viewer: Viewer, key: ModuleKey): Promise<ModuleMedia> {
      await assertCanWatch(viewer, key);
      return mediaOf(key);
    },

    /** One track's WebVTT text. */
    async file(viewer: Viewer, key: ModuleKey, language: string) {
      await assertCanWatch(viewer, key);
      const row = await repo.track(key, language);
      if (!row) throw trackNotFound();
      return { content: row.content, updatedAt: row.updatedAt };
    },

    /**
     * Adds or replaces the module's track in a language. The file is checked whole before
     * anything is written: a refused file leaves the existing track as it was.
     */
    async upload(key: ModuleKey, language: string, body: CaptionUploadBody): Promise<ModuleMedia> {
      await moduleOf(key);
      const type = body.contentType.split(";")[0]!.trim().toLowerCase();
      if (type !== "text/vtt" && !/\.vtt$/i.test(body.fileName)) throw notVtt();
      const bytes = Buffer.from(body.data, "base64");
      if (bytes.length > CAPTION_MAX_BYTES) throw captionTooLarge();
      const checked = validateVtt(bytes);
      if (!checked.ok) throw badCaptionFile(checked.message);
      await db.transaction(async (tx) => {
        const txRepo = createCaptionsRepository(tx);
        await txRepo.lockModule(key);
        const others = (await txRepo.tracksOf(key)).filter((t) => t.language !== language);
        if (others.length >= CAPTIONS_PER_MODULE_MAX) throw tooManyTracks();
        await refuseIfModuleGone(() =>
          txRepo.upsertTrack({
            ...key,
            language,
            label: body.label,
            content: checked.text,
            cues: checked.cues,
          }),
        );
      });
      return mediaOf(key);
    },

    async removeTrack(key: ModuleKey, language: string): Promise<ModuleMedia> {
      await moduleOf(key);
      if (!(await repo.deleteTrack(key, language))) throw trackNotFound();
      return mediaOf(key);
    },

    /** Sets the transcript; an empty one (after trimming) removes it. */
    async saveTranscript(key: ModuleKey, transcript: string): Promise<ModuleMedia> {
      await moduleOf(key);
      await refuseIfModuleGone(() => repo.saveTranscript(key, transcript.trim()));
      return mediaOf(key);
    },

    /** Every module of the course with its caption languages, in the course's order. */
    async coverage(courseId: string): Promise<CaptionCoverage> {
      const course = await deps.courses.findRow(courseId);
      if (!course) throw courseNotFound();
      const order = await deps.courses.moduleIds(courseId);
      const { languages, transcripts } = await repo.coverage(courseId);
      return {
        modules: order.map((moduleId) => ({
          moduleId,
          languages: languages.filter((l) => l.moduleId === moduleId).map((l) => l.language),
          hasTranscript: transcripts.has(moduleId),
        })),
      };
    },
  };
}

/** The module was deleted while the request ran: its foreign key refuses the row. */
async function refuseIfModuleGone<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (databaseRefusal(error).code === FOREIGN_KEY_VIOLATION) throw moduleNotFound();
    throw error;
  }
}

export type CaptionsService = ReturnType<typeof createCaptionsService>;
