import { creditAmountText, type EnrollmentWithRelations } from "@contract";
import { AwardIcon } from "lucide-react";
import { useMyCertificates } from "../api/get-my-certificates";

/**
 * The credit a learner's certificate holds, as they claimed it, and the profession it serves:
 * a physician who claimed her AMA credit of a course that also offers contact hours reads
 * "1 AMA PRA Category 1 Credit™ · Physicians", never the nurses' hours. Nothing
 * before the certificate is issued, or once it is revoked (its note says it no longer counts).
 */
export function CertificateCredit({ enrollment }: { enrollment: EnrollmentWithRelations }) {
  const { data } = useMyCertificates();
  const issued = data?.find((c) => c.enrollmentId === enrollment.id);
  if (!issued?.credits.length || issued.status === "revoked") return null;
  return (
    <p
      className="inline-flex items-center gap-1 text-sm font-medium text-zinc-800"
      data-testid="certificate-credit"
    >
      <AwardIcon className="size-3.5 shrink-0 text-amber-700" aria-hidden="true" />
      {[
        ...issued.credits.map((c) => creditAmountText(c.amount, c.name, c.singularName)),
        ...new Set(issued.credits.map((c) => c.profession).filter(Boolean)),
      ].join(" · ")}
    </p>
  );
}
