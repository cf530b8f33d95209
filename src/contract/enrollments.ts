import { z } from "zod";
import { courseSchema, enrollmentSchema, moduleIdSchema, userSchema } from "./entities";

/** Pages of long lists: the body stays the spec's plain array; the next cursor is a header. */
export const NEXT_CURSOR_HEADER = "x-next-cursor";
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
  q: z.string().trim().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** SPEC section 7: the client sends the initial state; the server only takes the ids. */
export const createEnrollmentBodySchema = z.object({
  userId: z.string().min(1).max(64),
  courseId: z.string().min(1).max(64),
  progress: z.literal(0).optional(),
  completedModules: z.array(z.string()).max(0).optional(),
  isCompleted: z.literal(false).optional(),
});
export type CreateEnrollmentBody = z.infer<typeof createEnrollmentBodySchema>;

/** `progress` is accepted for compatibility and ignored: the server computes it. */
export const progressUpdateBodySchema = z.object({
  userId: z.string().min(1).max(64),
  courseId: z.string().min(1).max(64),
  moduleId: moduleIdSchema,
  progress: z.number().optional(),
});
export type ProgressUpdateBody = z.infer<typeof progressUpdateBodySchema>;

export const enrollmentWithRelationsSchema = enrollmentSchema.extend({
  course: courseSchema,
  user: userSchema,
});
export type EnrollmentWithRelations = z.infer<typeof enrollmentWithRelationsSchema>;

/** A learner as the Learners page shows them: the user plus their enrollment figures. */
export const learnerSummarySchema = userSchema.extend({
  enrolledCount: z.number().int(),
  inProgressCount: z.number().int(),
  completedCount: z.number().int(),
  averageProgress: z.number().int(),
  courses: z.array(
    z.object({
      enrollmentId: z.string(),
      courseId: z.string(),
      title: z.string(),
      progress: z.number().int(),
      isCompleted: z.boolean(),
    }),
  ),
  /**
   * Set when the learner was created at their first sign-on through an identity provider;
   * `providerName` is null once that provider was removed.
   */
  createdBySignOn: z.object({ providerName: z.string().nullable() }).nullable(),
});
export type LearnerSummary = z.infer<typeof learnerSummarySchema>;

export const restrictResponseSchema = z.object({
  message: z.string(),
  status: z.enum(["active", "restricted"]),
});
