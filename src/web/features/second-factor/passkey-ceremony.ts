import {
  passkeyAssertionSchema,
  type passkeyCreationOptionsSchema,
  passkeyRegistrationSchema,
  type passkeyRequestOptionsSchema,
} from "@contract";
import type { z } from "zod";

/**
 * The browser's side of WebAuthn, through @simplewebauthn/browser (loaded when a passkey is
 * used, not with the sign-in page). Its answers are checked against the contract before
 * they are sent.
 */
export async function createPasskey(options: z.infer<typeof passkeyCreationOptionsSchema>) {
  const { startRegistration } = await import("@simplewebauthn/browser");
  return passkeyRegistrationSchema.parse(await startRegistration({ optionsJSON: options }));
}

export async function signWithPasskey(options: z.infer<typeof passkeyRequestOptionsSchema>) {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  return passkeyAssertionSchema.parse(await startAuthentication({ optionsJSON: options }));
}

/** A browser that cannot make passkeys (or an insecure page) hides the passkey buttons. */
export const passkeysSupported = () =>
  typeof window !== "undefined" && window.isSecureContext && "PublicKeyCredential" in window;
