import { type CredentialCheck, credentialCheckSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/**
 * GET /api/certificates/verify/:code/credential (public): the certificate's Open Badges
 * credential checked by the portal with a verifier's libraries (its proof, then its status).
 */
const checkCredential = (code: string): Promise<CredentialCheck> =>
  apiJson(
    credentialCheckSchema,
    "GET",
    `/api/certificates/verify/${encodeURIComponent(code)}/credential`,
  );

/** Under the certificate's own key, so revoking a certificate checks its credential again. */
const checkCredentialQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ["/api/certificates/verify", code, "credential"],
    queryFn: () => checkCredential(code),
  });

export function useCredentialCheck(code: string) {
  return useQuery(checkCredentialQueryOptions(code));
}
