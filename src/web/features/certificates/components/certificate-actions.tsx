import { type Certificate, type EnrollmentWithRelations, formatCertificateCode } from "@contract";
import { FileDownIcon, ShieldCheckIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { useMyCertificates } from "../api/get-my-certificates";
import { AddToLinkedInLink, DownloadCredentialLink } from "./credential-links";
import { DownloadCertificateButton } from "./download-certificate-button";
import { PdfCertificateLink } from "./pdf-certificate-link";
import { RevokedCertificateNote } from "./revoked-certificate-note";

/**
 * A completed enrollment's certificate on the Certificates tab: the spec's HTML file and the
 * PDF as two equal, labelled choices, with the verification code and a link to its page; once
 * issued, its Open Badges credential to download and to add to LinkedIn. A revoked one says
 * so, when and why, and offers only its verification page.
 */
export function CertificateActions({ enrollment }: { enrollment: EnrollmentWithRelations }) {
  const { data, isPending } = useMyCertificates();
  const issued = data?.find((c) => c.enrollmentId === enrollment.id);
  const title = enrollment.course.title;
  if (issued?.status === "revoked") {
    return (
      <div className="grid gap-2 sm:w-72">
        <RevokedCertificateNote certificate={issued} />
        <CodeLine certificate={issued} courseTitle={title} />
      </div>
    );
  }
  return (
    <div className="grid gap-2 sm:justify-items-end">
      <div className="grid grid-cols-2 gap-2 sm:flex">
        {issued ? (
          <PdfCertificateLink certificate={issued} variant="outline" className="w-full sm:w-auto">
            Download PDF<span className="sr-only"> certificate for {title}</span>
          </PdfCertificateLink>
        ) : (
          <Button variant="outline" className="w-full sm:w-auto" disabled>
            {isPending ? <Spinner /> : <FileDownIcon aria-hidden="true" />}
            Download PDF
          </Button>
        )}
        <DownloadCertificateButton
          enrollment={enrollment}
          variant="outline"
          className="w-full sm:w-auto"
        >
          Download HTML<span className="sr-only"> certificate for {title}</span>
        </DownloadCertificateButton>
      </div>
      {issued ? (
        <>
          <div className="grid grid-cols-2 gap-2 sm:flex">
            <DownloadCredentialLink
              code={issued.code}
              courseTitle={title}
              variant="ghost"
              size="sm"
              className="w-full sm:w-auto"
            />
            <AddToLinkedInLink
              certificate={issued}
              variant="ghost"
              size="sm"
              className="w-full sm:w-auto"
            />
          </div>
          <CodeLine
            certificate={issued}
            courseTitle={title}
            icon={<ShieldCheckIcon className="size-3.5 text-emerald-700" aria-hidden="true" />}
          />
        </>
      ) : null}
    </div>
  );
}

/** The certificate's code and a link to its public verification page. */
function CodeLine({
  certificate,
  courseTitle,
  icon,
}: {
  certificate: Certificate;
  courseTitle: string;
  icon?: ReactNode;
}) {
  return (
    <p className="flex flex-wrap items-center gap-1.5 text-xs text-zinc-600">
      {icon}
      <span className="font-mono tracking-tight" data-testid="certificate-code">
        {formatCertificateCode(certificate.code)}
      </span>
      <Link
        to={`/verify/${certificate.code}`}
        className="font-medium text-indigo-700 hover:underline focus-visible:rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        Verify<span className="sr-only"> the certificate for {courseTitle}</span>
      </Link>
    </p>
  );
}
