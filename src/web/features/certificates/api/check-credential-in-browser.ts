import { credentialPath, signedCredentialSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { OpenBadgeVerification } from "../../../../contract/open-badge-verification";
import { apiJson } from "../../../lib/api-client";
import { verifyInBrowser } from "../verify-in-browser";

/**
 * GET /api/certificates/:code/credential (its learner and administrators), then the same JSON
 * verified in this browser: the credential holds the learner's whole licence number, so only
 * they fetch it; anyone else is refused (403, 401) and sees the portal's check alone.
 */
async function checkCredentialInBrowser(code: string): Promise<OpenBadgeVerification> {
  const credential = await apiJson(signedCredentialSchema, "GET", credentialPath(code));
  return verifyInBrowser(credential);
}

/** Under the certificate's verification key, so revoking a certificate checks it again. */
const checkCredentialInBrowserQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ["/api/certificates/verify", code, "credential", "in-browser"],
    queryFn: () => checkCredentialInBrowser(code),
  });

/** Asked only while someone is signed in: an anonymous visitor cannot fetch the credential. */
export function useCredentialCheckInBrowser(code: string) {
  return useQuery(checkCredentialInBrowserQueryOptions(code));
}
