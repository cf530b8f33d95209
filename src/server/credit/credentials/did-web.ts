import { DID_V1_CONTEXT, type DidDocument, MULTIKEY_CONTEXT } from "../../../contract/linked-data";

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

type VerificationMethod = DidDocument["verificationMethod"][number];

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
