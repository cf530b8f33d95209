import type { Certificate } from "@contract";
import { ShieldXIcon } from "lucide-react";
import { useDates } from "../../../lib/dates";
import { cn } from "../../../lib/utils";

/**
 * A revoked certificate as its learner reads it: when and why it was revoked (the reason is
 * public, on its verification page too) and that it no longer counts. Its downloads are
 * withdrawn from the learner's screens: a certificate file is shown to others as proof, and
 * a revoked one proves nothing.
 */
export function RevokedCertificateNote({
  certificate,
  className,
}: {
  certificate: Pick<Certificate, "revokedAt" | "revokedReason">;
  className?: string;
}) {
  const dates = useDates();
  return (
    <div data-testid="certificate-revoked" className={cn("grid gap-1 text-sm", className)}>
      <p className="flex items-center gap-1.5 font-semibold text-red-800">
        <ShieldXIcon className="size-4 shrink-0" aria-hidden="true" />
        Revoked on {dates.date(certificate.revokedAt)}
      </p>
      {certificate.revokedReason ? (
        <p className="text-zinc-700">Reason: {certificate.revokedReason}</p>
      ) : null}
      <p className="text-xs text-zinc-600">
        It no longer counts as earned, and it can no longer be downloaded or shared.
      </p>
    </div>
  );
}
