import { type Certificate, certificateSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api-client";

/** GET /api/certificates/mine: the signed-in learner's issued certificates. */
const getMyCertificates = async (): Promise<Certificate[]> =>
  apiJson(z.array(certificateSchema), "GET", "/api/certificates/mine");

export const getMyCertificatesQueryOptions = () =>
  queryOptions({ queryKey: ["/api/certificates/mine"], queryFn: getMyCertificates });

export function useMyCertificates() {
  return useQuery(getMyCertificatesQueryOptions());
}
