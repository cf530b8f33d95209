import { z } from "zod";

/**
 * Captions and transcripts of module videos (WCAG 2.1 success criterion 1.2.2, level A):
 * one WebVTT caption track per language and an optional plain-text transcript per module.
 */

/** A caption file is text: an hour-long lecture's captions are well under 200 KB. */
export const CAPTION_MAX_BYTES = 1024 * 1024;
export const CAPTIONS_PER_MODULE_MAX = 10;
export const CAPTION_LABEL_MAX = 60;
export const TRANSCRIPT_MAX_CHARS = 100_000;

/**
 * A BCP 47 language tag as <track srclang> takes it: a language, then optionally a script,
 * a region and variants ("en", "fr", "pt-BR", "zh-Hant-TW", "sr-Latn"). Private-use and
 * extension subtags are not needed for captions and are refused.
 */
const LANGUAGE_TAG =
  /^[A-Za-z]{2,3}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|\d{3}))?(?:-(?:[A-Za-z\d]{5,8}|\d[A-Za-z\d]{3}))*$/;

/** The tag in its conventional case (pt-br -> pt-BR, zh-hant -> zh-Hant), so "EN" and "en" are one language. */
export function canonicalLanguageTag(tag: string): string {
  return tag
    .split("-")
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (/^[A-Za-z]{4}$/.test(part)) return part[0]!.toUpperCase() + part.slice(1).toLowerCase();
      if (/^[A-Za-z]{2}$/.test(part)) return part.toUpperCase();
      return part.toLowerCase();
    })
    .join("-");
}

export const captionLanguageSchema = z
  .string({ error: "Language must be text" })
  .trim()
  .max(35, "Language must be at most 35 characters")
  .regex(LANGUAGE_TAG, 'Language must be a BCP 47 language tag such as "en", "fr" or "pt-BR"')
  .transform(canonicalLanguageTag);

export const captionLabelSchema = z
  .string({ error: "Label must be text" })
  .trim()
  .min(1, "Label is required")
  .max(CAPTION_LABEL_MAX, `Label must be at most ${CAPTION_LABEL_MAX} characters`);

/**
 * PUT /api/courses/{id}/modules/{moduleId}/captions/{language}: the file as chosen in the
 * browser. Its bytes travel base64-encoded so the server checks the file itself (UTF-8,
 * size in bytes, WebVTT syntax) rather than text a browser already decoded.
 */
export const captionUploadBodySchema = z.strictObject({
  label: captionLabelSchema,
  fileName: z.string().trim().min(1, "File name is required").max(255),
  /** Browsers often report no type for .vtt files; the name or the type must say WebVTT. */
  contentType: z.string().max(100),
  /** Its size is checked once decoded, in bytes (CAPTION_MAX_BYTES). */
  data: z
    .string()
    .regex(
      /^[A-Za-z0-9+/]*={0,2}$/,
      "The file's contents did not arrive intact: choose the file again.",
    ),
});
export type CaptionUploadBody = z.infer<typeof captionUploadBodySchema>;

/** PUT /api/courses/{id}/modules/{moduleId}/transcript; an empty transcript removes it. */
export const transcriptBodySchema = z.strictObject({
  transcript: z
    .string({ error: "Transcript must be text" })
    .max(
      TRANSCRIPT_MAX_CHARS,
      `Transcript must be at most ${TRANSCRIPT_MAX_CHARS.toLocaleString("en-US")} characters`,
    ),
});
export type TranscriptBody = z.infer<typeof transcriptBodySchema>;

export const captionTrackSchema = z.object({
  language: z.string(),
  label: z.string(),
  /** Same-origin address of the WebVTT file, changing whenever the file is replaced. */
  src: z.string(),
  cues: z.number().int(),
  updatedAt: z.string(),
});
export type CaptionTrack = z.infer<typeof captionTrackSchema>;

/** GET /api/courses/{id}/modules/{moduleId}/media: what the player shows beside the video. */
export const moduleMediaSchema = z.object({
  captions: z.array(captionTrackSchema),
  transcript: z.string(),
});
export type ModuleMedia = z.infer<typeof moduleMediaSchema>;

/** GET /api/courses/{id}/captions (admin): which modules have captions and a transcript. */
export const captionCoverageSchema = z.object({
  modules: z.array(
    z.object({
      moduleId: z.string(),
      languages: z.array(z.string()),
      hasTranscript: z.boolean(),
    }),
  ),
});
export type CaptionCoverage = z.infer<typeof captionCoverageSchema>;

export const CAPTION_MESSAGES = {
  notVtt: "Choose a WebVTT caption file (.vtt).",
  tooLarge: "Caption files are limited to 1 MB.",
  tooMany: `A module has at most ${CAPTIONS_PER_MODULE_MAX} caption tracks. Delete one before adding another language.`,
  trackNotFound: "There is no caption track in this language for this module.",
  moduleLocked: "Complete the previous module to unlock this video.",
  /** The course page's notice when published modules lack captions. */
  missingCaptions: (count: number) =>
    `${count} published ${count === 1 ? "module has" : "modules have"} no captions: learners who are deaf or hard of hearing cannot follow ${count === 1 ? "it" : "them"} (WCAG 1.2.2).`,
  /** The same before publishing: the course can still be published without them. */
  missingCaptionsDraft: (count: number) =>
    `${count} ${count === 1 ? "module has" : "modules have"} no captions yet: without them, learners who are deaf or hard of hearing cannot follow ${count === 1 ? "it" : "them"} (WCAG 1.2.2).`,
} as const;
