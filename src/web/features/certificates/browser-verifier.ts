import {
  type OpenBadgeVerification,
  portalDocumentLoader,
  verifyOpenBadge,
} from "../../../contract/open-badge-verification";

/**
 * The check the portal runs, run here: the credential's proof against the keys of the DID
 * document this page's origin serves, then its bit in the status list of that same origin.
 * Every JSON-LD context is bundled; nothing else is fetched.
 */
export function verifyWithPortalKeys(credential: unknown): Promise<OpenBadgeVerification> {
  return verifyOpenBadge(
    credential,
    portalDocumentLoader({ origin: window.location.origin, fetch: window.fetch.bind(window) }),
  );
}
