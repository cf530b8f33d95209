import { z } from "zod";
import { formatWatchSeconds } from "./durations";

/**
 * A module states its length in whole minutes (SPEC section 9); its video has a real length,
 * which the server reads from the file on upload. Credit is earned by time spent learning,
 * so a stated length far from the video's ("15 minutes" for a 12-second clip) is flagged.
 */
export const LENGTH_TOLERANCE = 0.1;

/** The whole minutes a video of `seconds` fills, at least 1: the module's default length. */
export const minutesOfVideo = (seconds: number): number => Math.max(1, Math.round(seconds / 60));

/** Whether a stated length differs from the video's real length by more than 10 % of it. */
export function lengthMismatch(statedMinutes: number, videoSeconds: number | null): boolean {
  if (videoSeconds === null || !Number.isFinite(statedMinutes)) return false;
  return Math.abs(statedMinutes * 60 - videoSeconds) > LENGTH_TOLERANCE * videoSeconds;
}

/** "States 15 minutes; its video plays 12 s." */
export const lengthMismatchText = (statedMinutes: number, videoSeconds: number): string =>
  `States ${statedMinutes} ${statedMinutes === 1 ? "minute" : "minutes"}; its video plays ${formatWatchSeconds(Math.round(videoSeconds))}.`;

/** What publishing a course should make its administrator aware of. */
export const PUBLISH_CONFIRMATIONS = {
  /** The `confirm` value that publishes a credit course whose completion is Manual. */
  reporting: (credit: string, regulator: string) =>
    `The catalogue reports ${credit} to ${regulator}, but this course does not: set its ${regulator} activity ID under Reporting, or its learners' claims will not reach ${regulator}.`,
  manualCompletion: "manual-completion",
} as const;

export const PUBLISH_MESSAGES = {
  creditLength: (credit: string, contentSeconds: number, supported: string, hour: string) =>
    `${credit} is more than the content supports: its modules run ${formatWatchSeconds(contentSeconds)}, which is ${supported} at ${hour}. Publish it only with a reason, kept on the audit trail.`,
  creditLengthReasonNeeded:
    "The credit exceeds what the content's length supports: give the reason to publish it anyway.",
  fieldsOfStudy: (credit: string, fields: string) =>
    `The fields of study add up to ${fields}, but the course offers ${credit}: make them add up under Credit settings.`,
  publishedFieldsOfStudy: (credit: string, fields: string) =>
    `The fields of study would add up to ${fields}, but the published course offers ${credit}: its certificates print them, so they must add up.`,
  reporting: (credit: string, regulator: string) =>
    `The catalogue reports ${credit} to ${regulator}, but this course does not: set its ${regulator} activity ID under Reporting, or its learners' claims will not reach ${regulator}.`,
  manualCompletion:
    "This course offers credit, but its completion is Manual: learners can mark a module complete without watching its video. Turn on verified watching under Completion, or confirm that credit may be earned this way.",
  moduleLength: (position: number, title: string, statedMinutes: number, videoSeconds: number) =>
    `Module ${position} "${title}": ${lengthMismatchText(statedMinutes, videoSeconds)}`,
} as const;

export const coursePublishCheckSchema = z.object({
  key: z.enum([
    "manual-completion",
    "module-length",
    "credit-length",
    "fields-of-study",
    "reporting",
  ]),
  /**
   * A warning only informs; "confirm" means publishing asks the administrator to confirm
   * (for credit-length, with a reason kept on the audit trail); "block" means the course
   * cannot be published until it is fixed.
   */
  severity: z.enum(["warning", "confirm", "block"]),
  message: z.string(),
  /** The module a module-length check is about. */
  moduleId: z.string().nullable(),
});
export type CoursePublishCheck = z.infer<typeof coursePublishCheckSchema>;
export const coursePublishChecksSchema = z.object({ checks: z.array(coursePublishCheckSchema) });
export type CoursePublishChecks = z.infer<typeof coursePublishChecksSchema>;

/** PATCH /api/courses/:id/publish?confirm=manual-completion&creditLengthReason=… */
export const publishQuerySchema = z.strictObject({
  confirm: z.literal(PUBLISH_CONFIRMATIONS.manualCompletion).optional(),
  /** Publishes credit beyond what the content's length supports, for this reason. */
  creditLengthReason: z
    .string()
    .trim()
    .min(1, "Give the reason the credit exceeds the content's length")
    .max(500, "The reason must be at most 500 characters")
    .optional(),
});
