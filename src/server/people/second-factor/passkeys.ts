import { isIP } from "node:net";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { z } from "zod";
import {
  type passkeyAssertionSchema,
  passkeyCreationOptionsSchema,
  type passkeyRegistrationSchema,
  passkeyRequestOptionsSchema,
} from "../../../contract";
import type { SecondFactorRow } from "./second-factor.table";

/** Who passkeys are made for: PUBLIC_URL's host and origin. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

/**
 * The relying party of PUBLIC_URL. WebAuthn takes a domain, never an address: outside
 * production, a portal opened on an address (http://127.0.0.1:5000) keeps its passkeys on
 * `localhost` at the same port, which browsers also count as a secure context.
 */
export function relyingPartyOf(input: {
  publicUrl: string;
  production: boolean;
  name: string;
}): RelyingParty {
  const url = new URL(input.publicUrl);
  if (!input.production && isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0) {
    url.hostname = "localhost";
  }
  return { id: url.hostname, name: input.name, origin: url.origin };
}

const TIMEOUT_MS = 2 * 60 * 1000;
const transportsOf = (row: SecondFactorRow) =>
  (row.transports ?? []) as NonNullable<
    z.infer<typeof passkeyRegistrationSchema>["response"]["transports"]
  >;

export function createPasskeys(rp: RelyingParty) {
  return {
    /** What the browser makes a new passkey with; the account's passkeys are not made twice. */
    creationOptions: async (
      user: { id: string; email: string; name: string },
      own: SecondFactorRow[],
    ) =>
      passkeyCreationOptionsSchema.parse(
        await generateRegistrationOptions({
          rpName: rp.name,
          rpID: rp.id,
          userName: user.email,
          userDisplayName: user.name,
          userID: new TextEncoder().encode(user.id),
          timeout: TIMEOUT_MS,
          attestationType: "none",
          excludeCredentials: own.flatMap((f) =>
            f.credentialId ? [{ id: f.credentialId, transports: transportsOf(f) }] : [],
          ),
          authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
        }),
      ),

    /** The new passkey's credential, or null when the browser's answer does not verify. */
    async verifyCreation(response: z.infer<typeof passkeyRegistrationSchema>, challenge: string) {
      try {
        const { verified, registrationInfo } = await verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: false,
        });
        return verified ? registrationInfo.credential : null;
      } catch {
        return null;
      }
    },

    /** What the browser signs a sign-in's challenge with: only this account's passkeys. */
    requestOptions: async (own: SecondFactorRow[]) =>
      passkeyRequestOptionsSchema.parse(
        await generateAuthenticationOptions({
          rpID: rp.id,
          timeout: TIMEOUT_MS,
          userVerification: "preferred",
          allowCredentials: own.flatMap((f) =>
            f.credentialId ? [{ id: f.credentialId, transports: transportsOf(f) }] : [],
          ),
        }),
      ),

    /**
     * The passkey's new signature counter when its signature over `challenge` verifies with
     * the stored public key; null otherwise (another challenge, origin, or a cloned key).
     */
    async verifyAssertion(
      response: z.infer<typeof passkeyAssertionSchema>,
      challenge: string,
      passkey: SecondFactorRow,
    ): Promise<number | null> {
      if (!passkey.credentialId || !passkey.publicKey) return null;
      try {
        const { verified, authenticationInfo } = await verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: false,
          credential: {
            id: passkey.credentialId,
            publicKey: Buffer.from(passkey.publicKey, "base64url"),
            counter: passkey.signCount,
            transports: transportsOf(passkey),
          },
        });
        return verified ? authenticationInfo.newCounter : null;
      } catch {
        return null;
      }
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
