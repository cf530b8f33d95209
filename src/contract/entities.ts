import { z } from "zod";
import { CATEGORIES } from "./limits";
import { moduleKindSchema, packageSummarySchema } from "./packages";
import { regulatorSchema } from "./reporting-activity";

/** SPEC section 3. Dates travel as ISO strings. */
export const roleSchema = z.enum(["admin", "learner"]);
export type Role = z.infer<typeof roleSchema>;
export const userStatusSchema = z.enum(["active", "restricted"]);
export type UserStatus = z.infer<typeof userStatusSchema>;

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: roleSchema,
  status: userStatusSchema,
  createdAt: z.string(),
  firebaseUid: z.string().nullable(),
  isRegisteredByAdmin: z.boolean(),
  passwordSetup: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

export const categorySchema = z.enum(CATEGORIES);

/** Module ids are generated on the client as 'module_' + timestamp (SPEC section 3). */
export const moduleIdSchema = z
  .string()
  .regex(/^module_\d{10,16}$/, "Module id must be 'module_' followed by a timestamp");

/** Object paths issued by the upload flow (ARCHITECTURE section 3). */
export const objectPathSchema = z
  .string()
  .regex(/^\/objects\/uploads\/[A-Za-z0-9_-]{16,64}$/, "Must be an uploaded object path");

export const moduleSchema = z.object({
  id: moduleIdSchema,
  title: z.string(),
  description: z.string().nullable().optional(),
  duration: z.number().int(),
  videoUrl: z.string(),
  /**
   * The video's playing time in seconds, read by the server from the file on upload; null
   * when the file does not state it (or it was uploaded before lengths were read).
   */
  videoSeconds: z.number().nullable(),
  /** What the module plays: "video" (the spec's module) or a SCORM or cmi5 package. */
  kind: moduleKindSchema,
  /** A package module's package; absent for a video module (whose `videoUrl` is then ""). */
  package: packageSummarySchema.optional(),
});
export type Module = z.infer<typeof moduleSchema>;

/** 'manual' is the spec's 'Mark as Complete at any time'; 'verified' requires watching. */
export const completionPolicySchema = z.enum(["manual", "verified"]);
export type CompletionPolicy = z.infer<typeof completionPolicySchema>;

/**
 * A credit type as a course offers it: a type of the organisation's credit catalogue, whose
 * words and body it carries, with the course's own amount, claim step and designation.
 */
export const creditTypeSchema = z.object({
  id: z.string(),
  /** The catalogue's type: amounts of one catalogue type add up across courses. */
  catalogueTypeId: z.string(),
  /** As the body writes it, in the plural: "contact hours", "CPE credits". */
  name: z.string(),
  /** As the body writes exactly one: "contact hour", "AMA PRA Category 1 Credit™". */
  singularName: z.string(),
  /** Whom the credit serves ("Nursing"); "" when the catalogue does not say. */
  profession: z.string(),
  /** The most a learner can claim. */
  amount: z.number(),
  accreditingBody: z.string().nullable(),
  providerNumber: z.string().nullable(),
  accreditationStatement: z.string(),
  designationStatement: z.string(),
  /** Partial credit: learners claim in steps of this; null awards the whole amount. */
  claimStep: z.number().nullable(),
  /** Learners claiming this type must enter their licence before the certificate. */
  licenceRequired: z.boolean(),
  /** The course is published only once its fields of study add up to the amount (NASBA). */
  fieldsOfStudyRequired: z.boolean(),
  /** The minutes of learning in one credit hour of its body: 60, or NASBA's 50. */
  minutesPerHour: z.number().int(),
  /** The regulators the catalogue says this credit is reported to. */
  regulators: z.array(regulatorSchema),
});
export type CreditType = z.infer<typeof creditTypeSchema>;

export const courseSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: categorySchema,
  duration: z.number().int(),
  thumbnail: z.string().nullable(),
  createdBy: z.string().nullable(),
  modules: z.array(moduleSchema),
  isPublished: z.boolean(),
  /** Completion rule, set in the course's settings. */
  completionPolicy: completionPolicySchema,
  minWatchPercent: z.number().int(),
  minSeatSeconds: z.number().int().nullable(),
  /** The credit types the course offers, in order; empty for a course without credit. */
  creditTypes: z.array(creditTypeSchema),
  createdAt: z.string(),
});
export type Course = z.infer<typeof courseSchema>;

export const enrollmentSchema = z.object({
  id: z.string(),
  userId: z.string(),
  courseId: z.string(),
  progress: z.number().int().min(0).max(100),
  completedModules: z.array(z.string()),
  isCompleted: z.boolean(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Enrollment = z.infer<typeof enrollmentSchema>;

/** SPEC section 3 admin stats, plus the totals the Learners page shows. */
export const adminStatsSchema = z.object({
  totalCourses: z.number(),
  activeLearners: z.number(),
  completions: z.number(),
  avgProgress: z.number(),
  totalLearners: z.number(),
  totalEnrollments: z.number(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

export const messageSchema = z.object({ message: z.string() });

export const publicConfigSchema = z.object({
  productName: z.string(),
  passwordSetupMode: z.enum(["open", "invite"]),
  firebase: z
    .object({
      apiKey: z.string(),
      authDomain: z.string(),
      projectId: z.string(),
      /** Only in development and tests: the Auth emulator's host:port (FIREBASE_AUTH_EMULATOR_HOST). */
      emulatorHost: z.string().optional(),
    })
    .nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
