import {
  CERTIFICATE_CODE_INPUT_MAX,
  type PublicCertificate,
  verifyCertificateResponseSchema,
} from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson, isApiError } from "../../../lib/api-client";

/** Text too long to be any certificate's code: nothing is asked about it. */
export const cannotBeACode = (code: string) => code.length > CERTIFICATE_CODE_INPUT_MAX;

/** The server's answer to text that cannot be a code (too long for a code, or for an address). */
export const isInvalidCode = (error: unknown) =>
  isApiError(error, "validation.invalid_params") || isApiError(error, "request.address_too_long");

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

/**
 * The certificate of a code; nothing is asked while no code is given (the lookup form), nor
 * for text that cannot be a code.
 */
export function useVerifyCertificate(code: string) {
  return useQuery({
    ...verifyCertificateQueryOptions(code),
    enabled: code !== "" && !cannotBeACode(code),
  });
}
