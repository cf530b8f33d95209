import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import { type DocumentLoader, verifyCredential } from "@digitalbazaar/vc";
import { checkStatus } from "@digitalbazaar/vc-bitstring-status-list";
import type { CredentialResult } from "../../../contract";

/**
 * Checks a credential the way any verifier does, with the libraries of the field: its Data
 * Integrity proof (eddsa-rdfc-2022) against the key its issuer's DID document publishes for
 * assertions, then its revocation bit in the issuer's signed status list. `revoked` when the
 * bit is set, `invalid` when the proof, the status list or the credential itself fails.
 */
export async function verifyOpenBadge(
  credential: unknown,
  documentLoader: DocumentLoader,
): Promise<{ result: CredentialResult; error?: Error }> {
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
  if (!outcome.verified) {
    return { result: "invalid", error: outcome.error ?? outcome.statusResult?.error };
  }
  return { result: revoked ? "revoked" : "valid" };
}
