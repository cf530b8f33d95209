import { type EnrollmentWithRelations, formatCertificateCode } from "@contract";
import { FileDownIcon, ShieldCheckIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { useMyCertificates } from "../api/get-my-certificates";
import { DownloadCertificateButton } from "./download-certificate-button";

/**
 * A completed enrollment's certificate downloads: the spec's HTML file and, beside it, the
 * PDF, with the verification code and a link to its public page.
 */
export function CertificateActions({ enrollment }: { enrollment: EnrollmentWithRelations }) {
  const { data } = useMyCertificates();
  const issued = data?.find((c) => c.enrollmentId === enrollment.id);
  const title = enrollment.course.title;
  return (
    <div className="grid gap-2 sm:justify-items-end">
      <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 sm:flex">
        <DownloadCertificateButton
          enrollment={enrollment}
          variant="outline"
          className="w-full sm:w-auto"
        >
          Download certificate
          <span className="sr-only"> for {title}</span>
        </DownloadCertificateButton>
        {issued ? (
          <Button asChild variant="outline" className="w-full sm:w-auto">
            <a href={`/api/certificates/${encodeURIComponent(issued.id)}/pdf`} download>
              <FileDownIcon aria-hidden="true" />
              PDF<span className="sr-only"> certificate for {title}</span>
            </a>
          </Button>
        ) : (
          <Button variant="outline" className="w-full sm:w-auto" disabled>
            <FileDownIcon aria-hidden="true" />
            PDF
          </Button>
        )}
      </div>
      {issued ? (
        <p className="flex items-center gap-1.5 text-xs text-zinc-600">
          <ShieldCheckIcon className="size-3.5 text-emerald-700" aria-hidden="true" />
          <span className="font-mono tracking-tight" data-testid="certificate-code">
            {formatCertificateCode(issued.code)}
          </span>
          <Link
            to={`/verify/${issued.code}`}
            className="font-medium text-indigo-700 hover:underline focus-visible:rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            Verify<span className="sr-only"> the certificate for {title}</span>
          </Link>
        </p>
      ) : null}
    </div>
  );
}
