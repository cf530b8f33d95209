import type { Certificate } from "@contract";
import { FileDownIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button, type ButtonProps } from "../../../components/ui/button";

/** Where an issued certificate's PDF is served (as an attachment). */
const certificatePdfUrl = (certificate: Pick<Certificate, "id">) =>
  `/api/certificates/${encodeURIComponent(certificate.id)}/pdf`;

/** The PDF of an issued certificate, as a download link that looks like a button. */
export function PdfCertificateLink({
  certificate,
  children = "Download PDF",
  ...props
}: Omit<ButtonProps, "asChild" | "children"> & { certificate: Certificate; children?: ReactNode }) {
  return (
    <Button asChild {...props}>
      <a href={certificatePdfUrl(certificate)} download>
        <FileDownIcon aria-hidden="true" />
        {children}
      </a>
    </Button>
  );
}
