import { z } from "zod";
import { pageQuerySchema } from "./enrollments";
import { moduleKindSchema } from "./packages";

/**
 * Where each learner stands with a package module (SCORM or cmi5), as administrators see it:
 * the state of the learner's current attempt as the content reported it, the time the content
 * reported beside the seat time the portal measured, how many attempts they started, and
 * whether the module is complete in their progress.
 */

/**
 * A learner's status on a package module, from the current attempt: "Not started" before a
 * launch (or after a reset, until the next launch), "Passed" or "Failed" once the content
 * reported success, "Completed" once it reported completion (or met the module's rule without
 * either, as a cmi5 `moveOn` of NotApplicable does), and "In progress" otherwise.
 */
export const PACKAGE_PROGRESS_STATUSES = [
  "Not started",
  "In progress",
  "Completed",
  "Passed",
  "Failed",
] as const;
export const packageProgressStatusSchema = z.enum(PACKAGE_PROGRESS_STATUSES);
export type PackageProgressStatus = z.infer<typeof packageProgressStatusSchema>;

/** One enrolled learner's standing on one package module. */
export const packageProgressRowSchema = z.object({
  learner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  status: packageProgressStatusSchema,
  /** The current attempt's score as a whole percent (the package's scaled score × 100). */
  scorePercent: z.number().int().nullable(),
  /** The time the content reported for the current attempt, in whole seconds. */
  reportedSeconds: z.number().int().min(0),
  /** The time the portal saw the content open and visible in the current attempt, in whole seconds. */
  seatSeconds: z.number().int().min(0),
  /** How many attempts the learner started, reset ones included. */
  attempts: z.number().int().min(0),
  /** The open attempt's number; null before the first launch and after a reset. */
  currentAttempt: z.number().int().min(1).nullable(),
  /** When the learner last launched, reported or sat with the content. */
  lastActivityAt: z.string().nullable(),
  /** Whether the module is complete in the learner's progress: a reset leaves it complete. */
  moduleCompleted: z.boolean(),
  moduleCompletedAt: z.string().nullable(),
});
export type PackageProgressRow = z.infer<typeof packageProgressRowSchema>;

/** The orders of the list: by name or email, A to Z or (with `-`) Z to A. */
export const PACKAGE_PROGRESS_SORTS = ["name", "-name", "email", "-email"] as const;
export type PackageProgressSort = (typeof PACKAGE_PROGRESS_SORTS)[number];

/**
 * GET /api/courses/{courseId}/modules/{moduleId}/package/attempts: a page of the enrolled
 * learners (`limit`, `cursor` from the x-next-cursor header, `q` searching name or email),
 * or with `format=csv` every learner matching `q` as a file.
 */
export const packageProgressQuerySchema = pageQuerySchema.extend({
  sort: z.enum(PACKAGE_PROGRESS_SORTS).default("name"),
  format: z.enum(["json", "csv"]).default("json"),
});
export type PackageProgressQuery = z.input<typeof packageProgressQuerySchema>;

/** One package module of a course, as a learner's record shows it beside the watching of videos. */
export const learnerPackageModuleSchema = packageProgressRowSchema.omit({ learner: true }).extend({
  moduleId: z.string(),
  moduleTitle: z.string(),
  kind: moduleKindSchema.exclude(["video"]),
});
export type LearnerPackageModule = z.infer<typeof learnerPackageModuleSchema>;

/** GET /api/admin/package-progress/{userId}/{courseId}: the learner's package modules, in course order. */
export const learnerPackageProgressSchema = z.object({
  courseId: z.string(),
  userId: z.string(),
  modules: z.array(learnerPackageModuleSchema),
});
export type LearnerPackageProgress = z.infer<typeof learnerPackageProgressSchema>;

/** The answers of the administrators' package actions, in words. */
export const PACKAGE_PROGRESS_MESSAGES = {
  notAPackage: "This module plays a video: only SCORM and cmi5 modules keep attempts.",
  nothingToReset:
    "This learner has no attempt open on this module: their next launch already starts a fresh one.",
  attemptReset: (name: string, next: number) =>
    `${name}'s attempt was reset. Their next launch starts attempt ${next}.`,
} as const;
