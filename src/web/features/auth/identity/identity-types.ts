import type { PublicConfig } from "@contract";
import type { IdentityUser } from "../session-context";

export type { IdentityUser };

/** The identity-service settings of GET /api/config (null when Firebase is not configured). */
export type IdentitySettings = NonNullable<PublicConfig["firebase"]>;

/** A signed-in identity user and the ID token the server verifies. */
export type IdentityCredential = { user: IdentityUser; idToken: string };
