import { z } from "zod";
import { userResponseSchema } from "./auth";

/**
 * An administrator's second factor (OWASP ASVS V6): passkeys (WebAuthn) and one authenticator
 * app (TOTP, RFC 6238), with one-time recovery codes. With one, a right password alone starts
 * no session: the sign-in answers with a pending second step instead of `{ user }`.
 */
export const SECOND_FACTOR_METHODS = ["passkey", "totp", "recovery"] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

export const RECOVERY_CODE_COUNT = 10;
export const PASSKEY_NAME_MAX = 60;
/** How long a signed-in password waits for its second step. */
export const SECOND_STEP_TTL_MS = 5 * 60 * 1000;

/** What a right password answers an administrator who has (or must set up) a second factor. */
export const secondStepSchema = z.object({
  secondFactor: z.object({
    /** Set up a factor first: the organisation requires one and the account has none. */
    setupRequired: z.boolean(),
    /** What this account can prove itself with (empty while a setup is required). */
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
    expiresAt: z.string(),
  }),
});
export type SecondStep = z.infer<typeof secondStepSchema>["secondFactor"];

/** POST /api/auth/login: the spec's `{ user }`, or a pending second step. */
export const loginResponseSchema = z.union([userResponseSchema, secondStepSchema]);

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, "Must be base64url");
const TRANSPORTS = ["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"] as const;
const credentialDescriptor = z.object({
  id: base64url,
  type: z.literal("public-key"),
  transports: z.array(z.enum(TRANSPORTS)).optional(),
});
const userVerification = z.enum(["discouraged", "preferred", "required"]);

/** What the browser's navigator.credentials.create() is called with (WebAuthn L3 JSON). */
export const passkeyCreationOptionsSchema = z.object({
  challenge: base64url,
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: base64url, name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal("public-key") })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.enum(["discouraged", "preferred", "required"]).optional(),
      userVerification: userVerification.optional(),
    })
    .optional(),
  attestation: z.enum(["direct", "enterprise", "indirect", "none"]).optional(),
});

/** What navigator.credentials.get() is called with. */
export const passkeyRequestOptionsSchema = z.object({
  challenge: base64url,
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: userVerification.optional(),
});

const credentialCommon = {
  id: base64url,
  rawId: base64url,
  type: z.literal("public-key"),
  clientExtensionResults: z.object({}).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

/** A new passkey as the browser made it (attestation). */
export const passkeyRegistrationSchema = z.object({
  ...credentialCommon,
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: z.array(z.enum(TRANSPORTS)).optional(),
    publicKeyAlgorithm: z.number().optional(),
    publicKey: base64url.optional(),
  }),
});

/** A passkey's signature over a challenge (assertion). */
export const passkeyAssertionSchema = z.object({
  ...credentialCommon,
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
});

/** Six digits; spaces people type between groups are dropped. */
export const totpCodeSchema = z
  .string()
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your app"));
/** Recovery codes are shown as xxxxx-xxxxx; case, spaces and the dash do not matter. */
export const recoveryCodeSchema = z
  .string()
  .max(40)
  .transform((v) => v.replace(/[\s-]+/g, "").toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, "Enter a recovery code like abcde-12345"));

/** POST /api/auth/second-factor/verify: one proof of the pending sign-in. */
export const secondStepProofSchema = z.discriminatedUnion("method", [
  z.object({ method: z.literal("totp"), code: totpCodeSchema }),
  z.object({ method: z.literal("recovery"), code: recoveryCodeSchema }),
  z.object({ method: z.literal("passkey"), response: passkeyAssertionSchema }),
]);
export type SecondStepProof = z.infer<typeof secondStepProofSchema>;

export const passkeyNameSchema = z
  .string()
  .trim()
  .min(1, "Name the passkey")
  .max(PASSKEY_NAME_MAX, `At most ${PASSKEY_NAME_MAX} characters`);

/** A factor being added: the authenticator app's first code, or the new passkey. */
export const newFactorSchema = z.discriminatedUnion("method", [
  z.object({ method: z.literal("totp"), code: totpCodeSchema }),
  z.object({
    method: z.literal("passkey"),
    name: passkeyNameSchema,
    response: passkeyRegistrationSchema,
  }),
]);
export type NewFactor = z.infer<typeof newFactorSchema>;

/** What an authenticator app is set up with: the secret as a QR code's URI and as text. */
export const totpSetupSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

/**
 * Confirms a removal or new recovery codes: the current password, or a code from the
 * authenticator app or a recovery code (an account signed in through Firebase may have
 * no password here).
 */
export const factorConfirmationSchema = z
  .object({
    password: z.string().min(1).max(1024).optional(),
    code: z.string().trim().min(1).max(40).optional(),
  })
  .refine((b) => b.password !== undefined || b.code !== undefined, {
    message: "Enter your password or a code",
    path: ["password"],
  });
export type FactorConfirmation = z.infer<typeof factorConfirmationSchema>;

const factorSchema = z.object({
  id: z.string(),
  method: z.enum(["passkey", "totp"]),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type SecondFactor = z.infer<typeof factorSchema>;

/** GET /api/second-factor: the signed-in administrator's factors. */
export const secondFactorStatusSchema = z.object({
  factors: z.array(factorSchema),
  recoveryCodes: z.object({ remaining: z.number().int(), createdAt: z.string() }).nullable(),
  /** Whether the organisation requires a second factor of every administrator. */
  required: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;

/** A factor added, with recovery codes when they were made now (shown once, never again). */
export const factorAddedSchema = secondFactorStatusSchema.extend({
  newRecoveryCodes: z.array(z.string()).nullable(),
});
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** A setup at sign-in finished: the session's user, and the recovery codes to keep. */
export const setupFinishedSchema = userResponseSchema.extend({
  recoveryCodes: z.array(z.string()),
});

/** The organisation's rule: every administrator must have a second factor. */
export const secondFactorPolicySchema = z.object({ required: z.boolean() });
export type SecondFactorPolicy = z.infer<typeof secondFactorPolicySchema>;

export const SECOND_FACTOR_TEXTS = {
  stepTitle: "Confirm it's you",
  stepDescription: "Your account is protected with a second factor.",
  setupTitle: "Set up a second factor",
  setupDescription:
    "Your organisation requires administrators to confirm their sign-in with a passkey or an authenticator app.",
  expired: "This sign-in has expired. Please sign in again.",
  codesTitle: "Save your recovery codes",
  codesDescription:
    "Each code works once, if you lose your passkeys and authenticator app. They are shown only now.",
} as const;
