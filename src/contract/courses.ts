import { z } from "zod";
import {
  categorySchema,
  completionPolicySchema,
  moduleIdSchema,
  objectPathSchema,
} from "./entities";

const title = z.string().trim().min(1, "Title is required").max(200);
const description = z.string().trim().max(5000);

/**
 * A course's completion rule (its credit is set apart: PUT /api/courses/{id}/credit). Every field is optional, so a
 * PATCH changes only what it names; unknown keys are refused so a misspelt setting is not
 * silently ignored.
 */
export const courseSettingsBodySchema = z.strictObject({
  completionPolicy: completionPolicySchema.optional(),
  minWatchPercent: z
    .number({ error: "Minimum watched share must be a number" })
    .int("Minimum watched share must be a whole percentage")
    .min(1, "Minimum watched share must be between 1 and 100")
    .max(100, "Minimum watched share must be between 1 and 100")
    .optional(),
  minSeatSeconds: z
    .number({ error: "Minimum seat time must be a number" })
    .int("Minimum seat time must be whole seconds")
    .min(0, "Minimum seat time cannot be negative")
    .max(1_000_000, "Minimum seat time is too long")
    .nullable()
    .optional(),
});
export type CourseSettingsBody = z.infer<typeof courseSettingsBodySchema>;
export type CourseSettingsInput = z.input<typeof courseSettingsBodySchema>;

/** SPEC section 5, create course. createdBy is taken from the session, never from the body. */
export const createCourseBodySchema = z.object({
  title,
  description: description.min(1, "Description is required"),
  category: categorySchema,
  duration: z
    .number({ error: "Duration must be a number" })
    .int("Duration must be whole hours")
    .min(1, "Duration must be at least 1 hour")
    .max(10_000, "Duration must be at most 10,000 hours"),
  thumbnail: objectPathSchema.nullable().optional().or(z.literal("")),
  createdBy: z.string().optional(),
  modules: z.array(z.never()).max(0).optional(),
  ...courseSettingsBodySchema.shape,
});
export type CreateCourseBody = z.infer<typeof createCourseBodySchema>;

/**
 * Editing a course: the create form's fields and rules, without its author and modules
 * (modules have their own routes). An absent thumbnail keeps the current one; null or ""
 * removes it. Settings keys, as in create, change only what they name.
 */
export const updateCourseBodySchema = createCourseBodySchema.omit({
  createdBy: true,
  modules: true,
});
export type UpdateCourseBody = z.infer<typeof updateCourseBodySchema>;

/** The most modules one reorder may name: far beyond any course, small enough to check. */
const MAX_MODULES_PER_COURSE = 1000;

/** A course's modules in their new order: every module id exactly once. */
export const reorderModulesBodySchema = z.object({
  moduleIds: z
    .array(moduleIdSchema)
    .min(1, "List the course's modules in their new order")
    .max(MAX_MODULES_PER_COURSE),
});
export type ReorderModulesBody = z.infer<typeof reorderModulesBodySchema>;

/** What a learner sees of an enrolled course the provider has taken offline. */
export const COURSE_UNAVAILABLE = {
  title: "Unavailable",
  description: "The provider has taken this course offline for now.",
} as const;

/** SPEC section 5, module form: a video module (`kind` "video", the default). */
export const moduleBodySchema = z.object({
  id: moduleIdSchema,
  title,
  description: description.optional().nullable(),
  duration: z
    .number({ error: "Duration must be a number" })
    .int("Duration must be whole minutes")
    .min(1, "Duration must be at least 1 minute")
    .max(100_000, "Duration must be at most 100,000 minutes"),
  kind: z.literal("video").optional(),
  videoUrl: objectPathSchema,
});
export type ModuleBody = z.infer<typeof moduleBodySchema>;

/**
 * A module whose content is a SCORM or cmi5 package: the module form's fields, with the
 * object path of an uploaded `.zip` in place of the video. The package is checked when the
 * module is saved.
 */
export const packageModuleBodySchema = moduleBodySchema
  .omit({ kind: true, videoUrl: true })
  .extend({
    kind: z.enum(["scorm", "cmi5"]),
    packagePath: objectPathSchema,
  });
export type PackageModuleBody = z.infer<typeof packageModuleBodySchema>;

const KIND_ERROR = { error: "Kind must be one of: video, scorm, cmi5" };

/** What adding a module takes: a video module, or a package module. */
export const moduleRequestBodySchema = z.discriminatedUnion(
  "kind",
  [moduleBodySchema, packageModuleBodySchema],
  KIND_ERROR,
);
export type ModuleRequestBody = z.infer<typeof moduleRequestBodySchema>;

/**
 * What editing a module takes: the same, except that a package module that stays of its
 * kind may leave out `packagePath` to keep its package.
 */
export const moduleEditBodySchema = z.discriminatedUnion(
  "kind",
  [moduleBodySchema, packageModuleBodySchema.partial({ packagePath: true })],
  KIND_ERROR,
);
export type ModuleEditBody = z.infer<typeof moduleEditBodySchema>;

export const uploadRequestBodySchema = z.object({
  kind: z.enum(["thumbnail", "video", "logo", "package"]),
  fileName: z.string().trim().min(1).max(255),
  contentType: z.string().min(1).max(100),
  size: z.number().int().min(1),
});
export type UploadRequestBody = z.infer<typeof uploadRequestBodySchema>;

/** Where to send an upload's bytes: a same-origin path (local store) or a presigned URL (S3). */
export const uploadUrlSchema = z.object({ uploadURL: z.string() });

export const setAclBodySchema = z.object({ objectURL: z.string().min(1).max(4096) });
/**
 * The object path that courses and modules store, once a finished upload is checked; for a
 * video, its playing time in seconds as read from the file (null when the file does not say).
 */
export const objectPathAnswerSchema = z.object({
  objectPath: z.string(),
  durationSeconds: z.number().nullable().optional(),
});
export type ObjectPathAnswer = z.infer<typeof objectPathAnswerSchema>;
