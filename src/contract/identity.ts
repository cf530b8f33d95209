import { z } from "zod";
import { emailSchema } from "./auth";

/** SPEC section 8: raised by the identity-service helpers when Firebase is not configured. */
export const FIREBASE_NOT_CONFIGURED = "Firebase not configured";

/** A Firebase ID token as the web SDK issues it (a JWT, well under 8 KiB). */
export const firebaseIdTokenSchema = z.string().min(1).max(8192);

/**
 * POST /api/auth/firebase-sync (SPEC section 7: {firebaseUid, email, name}). The server
 * acts only on what it verifies in `firebaseIdToken`; the uid and email sent beside it
 * must match the token's, and the name is ignored (the administrator's record keeps it).
 */
export const firebaseSyncBodySchema = z.object({
  firebaseIdToken: firebaseIdTokenSchema,
  firebaseUid: z.string().max(128).optional(),
  email: emailSchema.optional(),
  name: z.string().max(120).nullable().optional(),
});
export type FirebaseSyncBody = z.infer<typeof firebaseSyncBodySchema>;
