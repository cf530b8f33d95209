import { DID_V1_CONTEXT, MULTIKEY_CONTEXT } from "./linked-data";

/**
 * The issuer's DID, did:web, derived from PUBLIC_URL: `https://learn.example.org` is
 * `did:web:learn.example.org`, resolved at https://learn.example.org/.well-known/did.json; a
 * port is percent-encoded (`did:web:localhost%3A5000`), and a path adds segments
 * (`https://example.org/lms` is `did:web:example.org:lms`, resolved at /lms/did.json).
 */
export function didWebOf(publicUrl: string): string {
  const url = new URL(publicUrl);
  const segments = url.pathname.split("/").filter(Boolean).map(encodeURIComponent);
  return ["did:web", encodeURIComponent(url.host), ...segments].join(":");
}

/** Where a did:web document lives under PUBLIC_URL: its own path when it has one (did:web). */
export const didDocumentPath = (publicUrl: string) =>
  new URL(publicUrl).pathname.replace(/\/+$/, "") ? "/did.json" : "/.well-known/did.json";

/** A published key, as the DID document lists it. */
export interface PublishedKey {
  id: string;
  publicKeyMultibase: string;
}

interface VerificationMethod {
  id: string;
  type: "Multikey";
  controller: string;
  publicKeyMultibase: string;
}

export interface DidDocument {
  "@context": string[];
  id: string;
  verificationMethod: VerificationMethod[];
  assertionMethod: string[];
}

const verificationMethodOf = (did: string, key: PublishedKey): VerificationMethod => ({
  id: `${did}#${key.id}`,
  type: "Multikey",
  controller: did,
  publicKeyMultibase: key.publicKeyMultibase,
});

/**
 * The issuer's DID document: every key it ever signed with, each one an assertion method,
 * so a credential signed before a rotation keeps verifying.
 */
export function didDocumentOf(did: string, keys: PublishedKey[]): DidDocument {
  const methods = keys.map((key) => verificationMethodOf(did, key));
  return {
    "@context": [DID_V1_CONTEXT, MULTIKEY_CONTEXT],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
  };
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
