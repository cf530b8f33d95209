import type { UserStatus } from "@contract";
import { BanIcon, CircleCheckIcon, MailIcon } from "lucide-react";
import { Badge } from "../../../components/ui/badge";

/**
 * 'Active' or 'Restricted' (SPEC section 2), and beside it 'Invited' while the learner has
 * not set a password: the account exists but nobody has signed in to it yet.
 */
export function LearnerStatusBadge({
  status,
  passwordSetup,
  className,
}: {
  status: UserStatus;
  passwordSetup: boolean;
  className?: string;
}) {
  return (
    <>
      {status === "active" ? (
        <Badge variant="success" className={className}>
          <CircleCheckIcon aria-hidden="true" />
          Active
        </Badge>
      ) : (
        <Badge variant="destructive" className={className}>
          <BanIcon aria-hidden="true" />
          Restricted
        </Badge>
      )}
      {passwordSetup ? null : (
        <Badge variant="secondary" className={className} title="Has not set a password yet">
          <MailIcon aria-hidden="true" />
          Invited
        </Badge>
      )}
    </>
  );
}
