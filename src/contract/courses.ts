import { z } from "zod";
import { categorySchema, moduleIdSchema, objectPathSchema } from "./entities";

const title = z.string().trim().min(1, "Title is required").max(200);
const description = z.string().trim().max(5000);

/** SPEC section 5, create course. createdBy is taken from the session, never from the body. */
export const createCourseBodySchema = z.object({
  title,
  description: description.min(1, "Description is required"),
  category: categorySchema,
  duration: z
    .number({ error: "Duration must be a number" })
    .int("Duration must be whole hours")
    .min(1, "Duration must be at least 1 hour")
    .max(10_000),
  thumbnail: objectPathSchema.nullable().optional().or(z.literal("")),
  createdBy: z.string().optional(),
  modules: z.array(z.never()).max(0).optional(),
});
export type CreateCourseBody = z.infer<typeof createCourseBodySchema>;

/** SPEC section 5, module form. */
export const moduleBodySchema = z.object({
  id: moduleIdSchema,
  title,
  description: description.optional().nullable(),
  duration: z
    .number({ error: "Duration must be a number" })
    .int("Duration must be whole minutes")
    .min(1, "Duration must be at least 1 minute")
    .max(100_000),
  videoUrl: objectPathSchema,
});
export type ModuleBody = z.infer<typeof moduleBodySchema>;

export const uploadRequestBodySchema = z.object({
  kind: z.enum(["thumbnail", "video"]),
  fileName: z.string().trim().min(1).max(255),
  contentType: z.string().min(1).max(100),
  size: z.number().int().min(1),
});
export type UploadRequestBody = z.infer<typeof uploadRequestBodySchema>;

export const setAclBodySchema = z.object({ objectURL: z.string().min(1).max(4096) });
