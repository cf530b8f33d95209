import { z } from "zod";

/**
 * cmi5 modules: the portal is the LMS of a cmi5 course. A learner launches each of its
 * assignable units (AUs); the AU reports to the portal's xAPI resources on the content
 * origin, and the module completes once the course's moveOn rules are met.
 */

/** How an AU is launched: Normal counts; Browse and Review let a learner look without credit. */
export const cmi5LaunchModeSchema = z.enum(["Normal", "Browse", "Review"]);
export type Cmi5LaunchMode = z.infer<typeof cmi5LaunchModeSchema>;

export const cmi5LaunchBodySchema = z.object({
  /** The AU's id, as the module's package lists it in `items`. */
  auId: z.string().min(1).max(2048),
  launchMode: cmi5LaunchModeSchema.default("Normal"),
});
export type Cmi5LaunchBody = z.input<typeof cmi5LaunchBodySchema>;

export const cmi5LaunchSchema = z.object({
  /** The AU's address on the content origin with the cmi5 launch parameters. */
  url: z.string(),
  /** "OwnWindow": the AU asks for a window of its own instead of a frame. */
  launchMethod: z.enum(["AnyWindow", "OwnWindow"]),
  sessionId: z.string(),
});
export type Cmi5Launch = z.infer<typeof cmi5LaunchSchema>;

/** The moveOn rules of cmi5 (cmi5 13.1.4). */
export const cmi5MoveOnSchema = z.enum([
  "Passed",
  "Completed",
  "CompletedAndPassed",
  "CompletedOrPassed",
  "NotApplicable",
]);

/** Each AU of a cmi5 module as the learner's attempt stands. */
export const cmi5AuStatusSchema = z.object({
  id: z.string(),
  title: z.string(),
  moveOn: cmi5MoveOnSchema,
  launchMethod: z.enum(["AnyWindow", "OwnWindow"]),
  /** The learner opened it at least once in this attempt. */
  launched: z.boolean(),
  completed: z.boolean(),
  passed: z.boolean(),
  failed: z.boolean(),
  /** Waived by an administrator, with cmi5's reason. */
  waived: z.string().nullable(),
  /** Its moveOn is met (or it was waived, or it has none). */
  satisfied: z.boolean(),
  scoreScaled: z.number().nullable(),
});

export const cmi5StatusSchema = z.object({
  /** The attempt's registration; null before the first launch. */
  registration: z.string().nullable(),
  /** The whole course's moveOn is met. */
  satisfied: z.boolean(),
  /**
   * The module is complete in the learner's progress: satisfied, and in a verified course
   * with the course's seat time as well.
   */
  moduleCompleted: z.boolean(),
  aus: z.array(cmi5AuStatusSchema),
});
export type Cmi5Status = z.infer<typeof cmi5StatusSchema>;

/** Why an administrator waives an AU (cmi5 9.5.5.2). */
export const CMI5_WAIVE_REASONS = [
  "Tested Out",
  "Equivalent AU",
  "Equivalent Outside Activity",
  "Administrative",
] as const;

export const cmi5WaiveBodySchema = z.object({
  userId: z.string().min(1).max(64),
  auId: z.string().min(1).max(2048),
  reason: z.enum(CMI5_WAIVE_REASONS),
});
export type Cmi5WaiveBody = z.infer<typeof cmi5WaiveBodySchema>;

/** A page of a registration's statements, as xAPI's StatementResult. */
export const cmi5StatementsQuerySchema = z.object({
  registration: z.string().uuid(),
  verb: z.string().max(2048).optional(),
  ascending: z.enum(["true", "false"]).default("false"),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.coerce.number().int().min(0).optional(),
});

export const cmi5StatementResultSchema = z.object({
  statements: z.array(z.record(z.string(), z.unknown())),
  /** The address of the next page, or "" when there is none. */
  more: z.string(),
});
export type Cmi5StatementResult = z.infer<typeof cmi5StatementResultSchema>;
