import type { EnrollmentWithRelations } from "@contract";
import { ShieldXIcon } from "lucide-react";
import { Link } from "react-router";
import { Button, type ButtonProps } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { useDates } from "../../../lib/dates";
import { cn } from "../../../lib/utils";
import { useMyCertificates } from "../api/get-my-certificates";
import { DownloadCertificateButton } from "./download-certificate-button";
import { PdfCertificateLink } from "./pdf-certificate-link";

/**
 * A completed course's certificate where the learner finishes it (the player, the exam, the
 * evaluation and attestation): the PDF first, as the file a licensing board takes, and the
 * spec's HTML file beside it; a revoked certificate only says so. Renders nothing before the
 * course is complete.
 */
export function CertificateDownloads({
  enrollment,
  className,
  variant,
  size,
}: {
  enrollment: EnrollmentWithRelations;
  className?: string;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
}) {
  const certificates = useMyCertificates();
  const dates = useDates();
  if (!enrollment.isCompleted) return null;
  const issued = certificates.data?.find((c) => c.enrollmentId === enrollment.id);
  const title = enrollment.course.title;
  if (issued?.status === "revoked") {
    // Said where the downloads stood; the reason waits on the Certificates tab.
    return (
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg bg-white px-3 py-2 text-sm text-red-800 shadow-sm">
        <ShieldXIcon className="size-4 shrink-0" aria-hidden="true" />
        <span className="font-medium">Certificate revoked on {dates.date(issued.revokedAt)}</span>
        <Link
          to="/learner?tab=certificates"
          className="font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          See why<span className="sr-only"> the certificate for {title} was revoked</span>
        </Link>
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      {issued ? (
        <PdfCertificateLink
          certificate={issued}
          variant={variant}
          size={size}
          className={cn("w-full sm:w-auto", className)}
        >
          Download PDF<span className="sr-only"> certificate for {title}</span>
        </PdfCertificateLink>
      ) : certificates.isPending ? (
        <Button variant={variant} size={size} className={className} disabled>
          <Spinner />
          Download PDF
        </Button>
      ) : null}
      <DownloadCertificateButton
        enrollment={enrollment}
        variant={issued || certificates.isPending ? "ghost" : variant}
        size="sm"
        className={cn(
          "w-full sm:w-auto",
          issued || certificates.isPending ? "text-current hover:bg-black/5" : className,
        )}
      >
        Download HTML<span className="sr-only"> certificate for {title}</span>
      </DownloadCertificateButton>
    </div>
  );
}
