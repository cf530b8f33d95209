import { z } from "zod";
import { completionPolicySchema, moduleIdSchema } from "./entities";

/** How often the player reports what was played while a video plays. */
export const HEARTBEAT_INTERVAL_MS = 5000;
/** The player never plays faster than this; the server refuses reports beyond it. */
export const MAX_PLAYBACK_RATE = 2;
/** At most this many played intervals in one heartbeat (seeks split the played time). */
export const MAX_HEARTBEAT_INTERVALS = 50;

const seconds = z.number().min(0);

/** One stretch of the video that played, as [start, end] seconds of media time. */
export const playedIntervalSchema = z
  .tuple([seconds, seconds])
  .refine(([start, end]) => end >= start, { message: "An interval must end after it starts" });

/**
 * What played since the previous heartbeat. The server decides what counts: it
 * merges the intervals with what was already watched and credits new seconds only at
 * wall-clock pace.
 */
export const heartbeatBodySchema = z.strictObject({
  courseId: z.string().min(1).max(64),
  moduleId: moduleIdSchema,
  intervals: z.array(playedIntervalSchema).max(MAX_HEARTBEAT_INTERVALS),
  position: seconds.max(1_000_000),
  duration: z.number().finite().positive().max(1_000_000),
  playbackRate: z.number().finite().min(0.0625).max(16).optional(),
  /** False when the page is hidden: nothing played there counts. */
  visible: z.boolean().optional(),
});
export type HeartbeatBody = z.infer<typeof heartbeatBodySchema>;

/** A learner's watching of one module, as the player and the administrator see it. */
export const moduleWatchSchema = z.object({
  moduleId: z.string(),
  moduleTitle: z.string(),
  /** The video's length in seconds as fixed by the first heartbeat; null before any. */
  durationSeconds: z.number().nullable(),
  watchedSeconds: z.number(),
  /** Whole percent of the video watched at least once (floored). */
  watchedPercent: z.number().int().min(0).max(100),
  seatSeconds: z.number(),
  position: z.number(),
  /** Whether the course's completion rule allows 'Mark as Complete' now. */
  canComplete: z.boolean(),
  /** Seconds still to watch (at normal pace) before the rule is met; 0 when met. */
  remainingSeconds: z.number(),
  lastHeartbeatAt: z.string().nullable(),
});
export type ModuleWatch = z.infer<typeof moduleWatchSchema>;

export const courseWatchSchema = z.object({
  courseId: z.string(),
  userId: z.string(),
  completionPolicy: completionPolicySchema,
  minWatchPercent: z.number().int(),
  minSeatSeconds: z.number().int().nullable(),
  modules: z.array(moduleWatchSchema),
});
export type CourseWatch = z.infer<typeof courseWatchSchema>;
