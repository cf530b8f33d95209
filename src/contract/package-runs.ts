import { z } from "zod";
import { packageStandardSchema } from "./packages";

/**
 * A learner's run of a package module: the launch, the SCORM data model each SCO commits,
 * and the seat time the player reports while the content is open and visible.
 */

/** How often the player reports that the content is open and visible. */
export const PACKAGE_SEAT_INTERVAL_MS = 15_000;

/**
 * The largest data model one commit may carry, as JSON: SCORM 2004's own limits (64,000
 * characters of suspend data, location, interactions and objectives) fit with room.
 */
export const SCORM_DATA_MAX_CHARS = 128_000;
/** `cmi.suspend_data`: SCORM 1.2 allows 4,096 characters, SCORM 2004 64,000. */
export const SCORM12_SUSPEND_DATA_MAX = 4096;
export const SCORM2004_SUSPEND_DATA_MAX = 64_000;

export const packageCompletionSchema = z.enum(["unknown", "incomplete", "completed"]);
export const packageSuccessSchema = z.enum(["unknown", "passed", "failed"]);

/** Where an attempt stands, as the package reported it of the whole and the portal measured. */
export const packageAttemptStatusSchema = z.object({
  attemptId: z.string(),
  completion: packageCompletionSchema,
  success: packageSuccessSchema,
  /** The package's score of the whole, scaled 0..1 (or -1..1), once it reported one. */
  scoreScaled: z.number().nullable(),
  /** Whether the package met the module's rule (completed or passed, never failed). */
  satisfied: z.boolean(),
  /** The time the portal saw the content open and visible, in seconds. */
  seatSeconds: z.number(),
  /** The time the package says was spent, in seconds. */
  reportedSeconds: z.number(),
  /** The course's minimum seat time for the module (verified courses), else 0. */
  minSeatSeconds: z.number(),
  /** Whether the module is now complete in the learner's progress. */
  moduleCompleted: z.boolean(),
  /** Each item's own state, in the package's order. */
  items: z.array(
    z.object({
      id: z.string(),
      completion: packageCompletionSchema,
      success: packageSuccessSchema,
      scoreScaled: z.number().nullable(),
    }),
  ),
});
export type PackageAttemptStatus = z.infer<typeof packageAttemptStatusSchema>;

/** What the run time starts an item with: the data model the SCO last committed, if any. */
export const scormItemLaunchSchema = z.object({
  itemId: z.string(),
  /** The item's launch address inside the package (file and query), to append to `contentBase`. */
  launchPath: z.string(),
  /** A SCO talks to the run time; an asset is only shown. */
  scormType: z.enum(["sco", "asset"]),
  /** The data model to initialise the run time with (scorm-again's `loadFromJSON`). */
  cmi: z.record(z.string(), z.unknown()),
});
export type ScormItemLaunch = z.infer<typeof scormItemLaunchSchema>;

/** An item's launch with the attempt's status (an asset counts as completed once opened). */
export const scormItemAnswerSchema = scormItemLaunchSchema.extend({
  status: packageAttemptStatusSchema,
});
export type ScormItemAnswer = z.infer<typeof scormItemAnswerSchema>;

export const packageLaunchSchema = z.object({
  attemptId: z.string(),
  standard: packageStandardSchema,
  items: z.array(z.object({ id: z.string(), title: z.string(), launchable: z.boolean() })),
  /** The item to open: the one last opened, else the first not yet satisfied. */
  resume: z.object({ itemId: z.string() }),
  /** The package's files on the content origin, ending in `/`. */
  contentBase: z.string(),
  /**
   * The page on the content origin that runs a SCORM package (the launcher); null for cmi5,
   * whose units launch through their own routes.
   */
  runtimeUrl: z.string().nullable(),
  status: packageAttemptStatusSchema,
  /** The resumed item's launch data (SCORM). */
  item: scormItemLaunchSchema.nullable(),
});
export type PackageLaunch = z.infer<typeof packageLaunchSchema>;

/**
 * One commit of a SCO's data model, as scorm-again renders it (`{cmi: {...}}`, JSON
 * format). `finish` marks the commit of LMSFinish / Terminate. The data model itself is
 * checked against the package's SCORM version on the server.
 */
export const scormCommitBodySchema = z.strictObject({
  cmi: z.record(z.string(), z.unknown()),
  finish: z.boolean().optional(),
  /** The attempt the launch opened: a commit to an attempt since ended is refused. */
  attemptId: z.string().min(1).max(64).optional(),
});
export type ScormCommitBody = z.infer<typeof scormCommitBodySchema>;

/**
 * A beat of the player while the content is open. `visible`: whether the page was visible
 * all the time since the previous beat (false for the beat that starts the clock, and for
 * the beat sent when the page shows again after being hidden).
 */
export const packageSeatBodySchema = z.strictObject({
  visible: z.boolean(),
  /** The attempt the launch opened: a beat for an attempt since ended is refused. */
  attemptId: z.string().min(1).max(64).optional(),
});
export type PackageSeatBody = z.infer<typeof packageSeatBodySchema>;

/**
 * An administrator's preview of a package module: what each item launches, with a SCORM
 * SCO's starting data model. Nothing a preview does is recorded.
 */
export const packagePreviewSchema = z.object({
  standard: packageStandardSchema,
  /** The package's files on the content origin, ending in `/`. */
  contentBase: z.string(),
  /** The SCORM launcher page on the content origin; null for cmi5. */
  runtimeUrl: z.string().nullable(),
  items: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      launchable: z.boolean(),
      /** The item's address, relative to `contentBase` (or a cmi5 AU's own address). */
      launchPath: z.string(),
      cmi: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type PackagePreview = z.infer<typeof packagePreviewSchema>;
