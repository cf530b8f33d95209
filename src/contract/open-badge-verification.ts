import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import { type DocumentLoader, verifyCredential } from "@digitalbazaar/vc";
import { checkStatus } from "@digitalbazaar/vc-bitstring-status-list";
import type { CredentialResult } from "./credentials";
import {
  BUNDLED_CONTEXTS,
  createDocumentLoader,
  isDidDocument,
  RefusedDocumentError,
  resolveDidUrl,
} from "./linked-data";

/*
 * The check of an Open Badges credential, the same on the server (the verification page's
 * public answer) and in the browser (the page's own check of the same JSON, and of a file a
 * learner shared). Imported by path, not through the contract's index: only the pages that
 * verify load these libraries.
 */

/**
 * Why a credential is invalid, when it is:
 * - `altered`: its proof does not match its contents (a name, an amount, a date was changed);
 * - `unknown-key`: it is signed with a key the portal's DID document does not publish (another
 *   issuer's, or none it ever had);
 * - `unsigned`: it carries no Data Integrity proof;
 * - `status-unchecked`: the proof holds but the revocation list could not be read or verified;
 * - `not-a-credential`: it is not a Verifiable Credential the portal could read at all.
 */
export type CredentialProblem =
  | "altered"
  | "unknown-key"
  | "unsigned"
  | "status-unchecked"
  | "not-a-credential";

export interface OpenBadgeVerification {
  result: CredentialResult;
  /** Set when `result` is `invalid`. */
  problem?: CredentialProblem;
  error?: Error;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : "");

/** What went wrong with the proof: the first error the proof check reported. */
function proofProblem(error: unknown): CredentialProblem {
  if (error instanceof RefusedDocumentError) {
    return BUNDLED_CONTEXTS.has(error.url) || !error.url.startsWith("did:")
      ? "not-a-credential"
      : "unknown-key";
  }
  const message = messageOf(error);
  if (/invalid signature/i.test(message)) return "altered";
  if (/no matching proofs/i.test(message)) return "unsigned";
  // jsonld reports a context it could not load (a refusal) wrapped in its own error.
  const cause = (error as { details?: { cause?: unknown } } | undefined)?.details?.cause;
  if (cause) return proofProblem(cause);
  return "not-a-credential";
}

/** Whether a JSON value is shaped like a Verifiable Credential: its contexts and type. */
function isCredential(value: unknown): value is { proof?: unknown } {
  if (typeof value !== "object" || value === null) return false;
  const { "@context": context, type } = value as Record<string, unknown>;
  return (
    Array.isArray(context) &&
    context.length > 0 &&
    Array.isArray(type) &&
    type.includes("VerifiableCredential")
  );
}

/**
 * Checks a credential the way any verifier does, with the libraries of the field: its Data
 * Integrity proof (eddsa-rdfc-2022) against the key its issuer's DID document publishes for
 * assertions, then its revocation bit in the issuer's signed status list. `revoked` when the
 * bit is set, `invalid` (with the problem) when the proof, the status list or the credential
 * itself fails.
 */
export async function verifyOpenBadge(
  credential: unknown,
  documentLoader: DocumentLoader,
): Promise<OpenBadgeVerification> {
  if (!isCredential(credential)) return { result: "invalid", problem: "not-a-credential" };
  if (!credential.proof) return { result: "invalid", problem: "unsigned" };
  let revoked = false;
  const outcome = await verifyCredential({
    credential,
    suite: new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 }),
    documentLoader,
    checkStatus: async (options) => {
      const status = await checkStatus({ ...options, verifyBitstringStatusListCredential: true });
      revoked = status.verified && (status.results ?? []).some((r) => r.status === true);
      return status;
    },
  });
  if (outcome.verified) return { result: revoked ? "revoked" : "valid" };
  const failedProof = outcome.results?.find((r) => !r.verified && r.error);
  const proofError = failedProof?.error?.errors?.[0] ?? failedProof?.error;
  if (proofError) {
    return { result: "invalid", problem: proofProblem(proofError), error: proofError };
  }
  if (outcome.statusResult && !outcome.statusResult.verified) {
    return {
      result: "invalid",
      problem: "status-unchecked",
      error: outcome.statusResult.error ?? outcome.error,
    };
  }
  return { result: "invalid", problem: "not-a-credential", error: outcome.error };
}

/**
 * The document loader of a verifier running on the portal's own pages: the bundled contexts,
 * the portal's DID document read from `{origin}/.well-known/did.json` (the one DID it
 * resolves: the document's own), and status lists at addresses of that same origin. Nothing
 * else is fetched. Every read asks the portal again (`no-cache`), so a revocation shows at
 * once, not after the five minutes a verifier elsewhere may cache a list.
 */
export function portalDocumentLoader(options: {
  origin: string;
  fetch: typeof globalThis.fetch;
}): DocumentLoader {
  const { origin } = options;
  const read = async (url: string) => {
    const response = await options.fetch(url, {
      cache: "no-cache",
      headers: { accept: "application/json" },
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return (await response.json()) as unknown;
  };
  let didDocument: ReturnType<typeof readDidDocument> | undefined;
  const readDidDocument = async () => {
    const document = await read(`${origin}/.well-known/did.json`);
    if (!isDidDocument(document)) throw new Error("The portal's DID document is malformed");
    return document;
  };
  return createDocumentLoader(async (url) => {
    if (url.startsWith("did:web:")) {
      didDocument ??= readDidDocument();
      return resolveDidUrl(await didDocument, url);
    }
    return URL.canParse(url) && new URL(url).origin === origin ? read(url) : undefined;
  });
}
