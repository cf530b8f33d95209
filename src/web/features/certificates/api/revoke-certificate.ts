import { type Certificate, certificateSchema, type RevokeCertificateBody } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/** POST /api/certificates/:id/revoke {reason} (administrators). */
const revokeCertificate = ({
  id,
  reason,
}: { id: string } & RevokeCertificateBody): Promise<Certificate> =>
  apiJson(certificateSchema, "POST", `/api/certificates/${encodeURIComponent(id)}/revoke`, {
    reason,
  });

export function useRevokeCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeCertificate,
    onSuccess: (certificate) => {
      if (certificate.userId) {
        void queryClient.invalidateQueries({
          queryKey: ["/api/learners", certificate.userId, "transcript"],
        });
      }
      void queryClient.invalidateQueries({ queryKey: ["/api/certificates/verify"] });
    },
  });
}
