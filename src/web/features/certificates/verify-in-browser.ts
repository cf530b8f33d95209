import type { OpenBadgeVerification } from "../../../contract/open-badge-verification";

/**
 * Verifies a credential in this browser. The verifier (the JSON-LD and signature libraries,
 * with every context bundled) is its own chunk, loaded on the first check: no other page
 * carries it.
 */
export async function verifyInBrowser(credential: unknown): Promise<OpenBadgeVerification> {
  const { verifyWithPortalKeys } = await import("./browser-verifier");
  return verifyWithPortalKeys(credential);
}
