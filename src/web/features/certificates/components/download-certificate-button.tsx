import type { EnrollmentWithRelations } from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { DownloadIcon } from "lucide-react";
import { useState } from "react";
import { Button, type ButtonProps } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { useProductName } from "../../../lib/app-config";
import { getMyCertificatesQueryOptions } from "../api/get-my-certificates";
import { downloadCertificate } from "../download-certificate";

/** Downloads the certificate of a completed enrollment; renders nothing otherwise. */
export function DownloadCertificateButton({
  enrollment,
  children = "Download certificate",
  ...props
}: Omit<ButtonProps, "onClick" | "asChild"> & { enrollment: EnrollmentWithRelations }) {
  const productName = useProductName();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (!enrollment.isCompleted) return null;

  async function onClick() {
    setBusy(true);
    try {
      // The issued certificate adds the code, the verification address and its QR code.
      // Without it (offline, an old server) the spec's certificate still downloads.
      const issued = await queryClient
        .ensureQueryData(getMyCertificatesQueryOptions())
        .then((list) => list.find((c) => c.enrollmentId === enrollment.id))
        .catch(() => undefined);
      await downloadCertificate(enrollment, productName, issued);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button {...props} onClick={() => void onClick()} disabled={busy || props.disabled}>
      {busy ? <Spinner /> : <DownloadIcon aria-hidden="true" />}
      {children}
    </Button>
  );
}
