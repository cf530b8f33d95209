import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { moduleCaptions, moduleTranscripts } from "./captions.table";

type ModuleKey = { courseId: string; moduleId: string };

const ofModule = (table: typeof moduleCaptions | typeof moduleTranscripts, key: ModuleKey) =>
  and(eq(table.courseId, key.courseId), eq(table.moduleId, key.moduleId));

/** Caption tracks and transcripts; every function runs on the executor it is given. */
export function createCaptionsRepository(db: Executor) {
  return {
    /** A module's tracks without their text, in language order. */
    async tracksOf(key: ModuleKey) {
      return db
        .select({
          language: moduleCaptions.language,
          label: moduleCaptions.label,
          cues: moduleCaptions.cues,
          updatedAt: moduleCaptions.updatedAt,
        })
        .from(moduleCaptions)
        .where(ofModule(moduleCaptions, key))
        .orderBy(asc(moduleCaptions.language));
    },

    async track(key: ModuleKey, language: string) {
      const [row] = await db
        .select()
        .from(moduleCaptions)
        .where(and(ofModule(moduleCaptions, key), eq(moduleCaptions.language, language)));
      return row;
    },

    /**
     * Serialises writes to one module's tracks until the transaction ends, so two uploads
     * of new languages cannot both pass the per-module limit.
     */
    async lockModule(key: ModuleKey) {
      await db.execute(
        sql`select pg_advisory_xact_lock(hashtext('module_captions'), hashtext(${`${key.courseId}/${key.moduleId}`}))`,
      );
    },

    async upsertTrack(values: typeof moduleCaptions.$inferInsert) {
      await db
        .insert(moduleCaptions)
        .values(values)
        .onConflictDoUpdate({
          target: [moduleCaptions.courseId, moduleCaptions.moduleId, moduleCaptions.language],
          set: {
            label: values.label,
            content: values.content,
            cues: values.cues,
            updatedAt: sql`now()`,
          },
        });
    },

    async deleteTrack(key: ModuleKey, language: string): Promise<boolean> {
      const rows = await db
        .delete(moduleCaptions)
        .where(and(ofModule(moduleCaptions, key), eq(moduleCaptions.language, language)))
        .returning({ language: moduleCaptions.language });
      return rows.length > 0;
    },

    async transcriptOf(key: ModuleKey): Promise<string> {
      const [row] = await db
        .select({ transcript: moduleTranscripts.transcript })
        .from(moduleTranscripts)
        .where(ofModule(moduleTranscripts, key));
      return row?.transcript ?? "";
    },

    async saveTranscript(key: ModuleKey, transcript: string) {
      if (transcript === "") {
        await db.delete(moduleTranscripts).where(ofModule(moduleTranscripts, key));
        return;
      }
      await db
        .insert(moduleTranscripts)
        .values({ ...key, transcript })
        .onConflictDoUpdate({
          target: [moduleTranscripts.courseId, moduleTranscripts.moduleId],
          set: { transcript, updatedAt: sql`now()` },
        });
    },

    /** Per module of the course: its caption languages and whether it has a transcript. */
    async coverage(courseId: string) {
      const languages = await db
        .select({ moduleId: moduleCaptions.moduleId, language: moduleCaptions.language })
        .from(moduleCaptions)
        .where(eq(moduleCaptions.courseId, courseId))
        .orderBy(asc(moduleCaptions.moduleId), asc(moduleCaptions.language));
      const transcripts = await db
        .select({ moduleId: moduleTranscripts.moduleId })
        .from(moduleTranscripts)
        .where(eq(moduleTranscripts.courseId, courseId));
      return { languages, transcripts: new Set(transcripts.map((t) => t.moduleId)) };
    },
  };
}
