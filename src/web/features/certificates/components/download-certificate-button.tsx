import type { EnrollmentWithRelations } from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { FileCode2Icon } from "lucide-react";
import { useState } from "react";
import { Button, type ButtonProps } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { useProductName } from "../../../lib/app-config";
import { getOrganisationQueryOptions } from "../../../lib/organisation";
import { getMyCertificatesQueryOptions } from "../api/get-my-certificates";
import { downloadCertificate } from "../download-certificate";

/**
 * Downloads SPEC section 3's HTML certificate (`Certificate-{title}.html`) of a completed
 * enrollment; renders nothing otherwise.
 */
export function DownloadCertificateButton({
  enrollment,
  children = "Download HTML",
  ...props
}: Omit<ButtonProps, "onClick" | "asChild"> & { enrollment: EnrollmentWithRelations }) {
  const productName = useProductName();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (!enrollment.isCompleted) return null;

  async function onClick() {
    setBusy(true);
    try {
      // The issued certificate adds the code, the verification address and its QR code;
      // the organisation names the issuer and the date format. Without them (offline, an old
      // server) the spec's certificate still downloads.
      const [issued, organisation] = await Promise.all([
        queryClient
          .ensureQueryData(getMyCertificatesQueryOptions())
          .then((list) => list.find((c) => c.enrollmentId === enrollment.id))
          .catch(() => undefined),
        queryClient.ensureQueryData(getOrganisationQueryOptions()).catch(() => undefined),
      ]);
      await downloadCertificate(
        enrollment,
        {
          productName,
          issuerName: organisation?.issuerName ?? productName,
          dateFormat: organisation?.dateFormat ?? "month-day-year",
        },
        issued,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button {...props} onClick={() => void onClick()} disabled={busy || props.disabled}>
      {busy ? <Spinner /> : <FileCode2Icon aria-hidden="true" />}
      {children}
    </Button>
  );
}
