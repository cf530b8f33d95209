import { z } from "zod";
import { userSchema } from "./entities";
import { MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./limits";

/**
 * A cookie beside the session's, readable by the web client and holding no secret: it says a
 * session cookie may be there. Without it the client knows it is signed out and does not
 * ask GET /api/auth/me, which would answer a signed-out visitor's every page with a 401.
 */
export const SIGNED_IN_COOKIE = "credo_signed_in";

/** Emails are compared lower-cased and trimmed everywhere (ARCHITECTURE section 4). */
export const emailSchema = z
  .string()
  .trim()
  .min(1, "Email is required")
  .max(254)
  .pipe(z.email("Enter a valid email address"))
  .transform((value) => value.toLowerCase());

export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`)
  .max(MAX_PASSWORD_LENGTH);

/** A sign-in password is only checked against the hash, so only its length is bounded. */
const anyPasswordSchema = z.string().min(1, "Password is required").max(MAX_PASSWORD_LENGTH);
const nameSchema = z.string().trim().min(1, "Name is required").max(MAX_NAME_LENGTH);
const phoneSchema = z.string().trim().max(40);

export const loginBodySchema = z
  .object({
    email: emailSchema,
    password: anyPasswordSchema.optional(),
    firebaseUid: z.string().max(128).optional(),
    firebaseIdToken: z.string().max(8192).optional(),
    rememberMe: z.boolean().optional(),
  })
  .refine((b) => b.password !== undefined || b.firebaseIdToken !== undefined, {
    message: "Password is required",
    path: ["password"],
  });
export type LoginBody = z.infer<typeof loginBodySchema>;

export const setupPasswordBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: nameSchema,
  firebaseUid: z.string().max(128).optional(),
  /** The identity service's ID token for the account just created (Firebase mode). */
  firebaseIdToken: z.string().min(1).max(8192).optional(),
  inviteToken: z.string().max(256).optional(),
});
export type SetupPasswordBody = z.infer<typeof setupPasswordBodySchema>;

export const setupAdminBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: nameSchema,
  adminKey: z.string().min(1, "Admin key is required").max(256),
});
export type SetupAdminBody = z.infer<typeof setupAdminBodySchema>;

export const emailBodySchema = z.object({ email: emailSchema });

export const registerBodySchema = z.object({
  firebaseUid: z.string().max(128).optional(),
  email: emailSchema,
  name: nameSchema,
  role: z.literal("learner").default("learner"),
  phone: phoneSchema.optional().nullable(),
  status: z.literal("active").default("active"),
  isRegisteredByAdmin: z.literal(true).default(true),
  passwordSetup: z.literal(false).default(false),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** Profile update: the server ignores userId and acts on the session's user (no IDOR). */
export const profileBodySchema = z
  .object({
    name: nameSchema,
    phone: phoneSchema.optional().nullable(),
    currentPassword: z.string().max(MAX_PASSWORD_LENGTH).optional(),
    newPassword: passwordSchema.optional(),
    userId: z.string().optional(),
  })
  .strict();
export type ProfileBody = z.infer<typeof profileBodySchema>;

export const userResponseSchema = z.object({ user: userSchema });

/**
 * POST /api/auth/logout. `redirectTo`: the identity provider's sign-out page, when the
 * session came from a provider with single logout; the browser goes there next.
 */
export const logoutResponseSchema = z.object({
  message: z.string(),
  redirectTo: z.string().optional(),
});
export const checkEmailResponseSchema = z.object({ isRegistered: z.boolean() });
export const checkPasswordSetupResponseSchema = z.object({ passwordSetup: z.boolean() });

/** The setup link's invitation token, looked up before the dialog asks for anything. */
export const invitationBodySchema = z.object({ token: z.string().min(1).max(256) });
/** Who a live invitation is for: the email it was sent to and the name the admin entered. */
export const invitationResponseSchema = z.object({ email: z.string(), name: z.string() });
export type Invitation = z.infer<typeof invitationResponseSchema>;

export const resetConfirmBodySchema = z.object({
  token: z.string().min(16).max(256),
  password: passwordSchema,
});
