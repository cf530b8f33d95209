import { type PublicCertificate, verifyCertificateResponseSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson, isApiError } from "../../../lib/api-client";

/** GET /api/certificates/verify/:code (public); null when no certificate has this code. */
async function verifyCertificate(code: string): Promise<PublicCertificate | null> {
  try {
    const body = await apiJson(
      verifyCertificateResponseSchema,
      "GET",
      `/api/certificates/verify/${encodeURIComponent(code)}`,
    );
    return body.certificate;
  } catch (error) {
    if (isApiError(error, "certificates.not_found")) return null;
    throw error;
  }
}

const verifyCertificateQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ["/api/certificates/verify", code],
    queryFn: () => verifyCertificate(code),
  });

/** The certificate of a code; nothing is asked while no code is given (the lookup form). */
export function useVerifyCertificate(code: string) {
  return useQuery({ ...verifyCertificateQueryOptions(code), enabled: code !== "" });
}
