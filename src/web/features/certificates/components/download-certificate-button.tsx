import type { EnrollmentWithRelations } from "@contract";
import { DownloadIcon } from "lucide-react";
import { Button, type ButtonProps } from "../../../components/ui/button";
import { useProductName } from "../../../lib/app-config";
import { downloadCertificate } from "../download-certificate";

/** Downloads the certificate of a completed enrollment; renders nothing otherwise. */
export function DownloadCertificateButton({
  enrollment,
  children = "Download certificate",
  ...props
}: Omit<ButtonProps, "onClick" | "asChild"> & { enrollment: EnrollmentWithRelations }) {
  const productName = useProductName();
  if (!enrollment.isCompleted) return null;
  return (
    <Button {...props} onClick={() => downloadCertificate(enrollment, productName)}>
      <DownloadIcon aria-hidden="true" />
      {children}
    </Button>
  );
}
