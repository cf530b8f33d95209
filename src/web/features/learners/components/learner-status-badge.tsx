import type { LearnerSummary, UserStatus } from "@contract";
import { BanIcon, CircleCheckIcon, KeyRoundIcon, MailIcon } from "lucide-react";
import { Badge } from "../../../components/ui/badge";

/**
 * 'Active' or 'Restricted' (SPEC section 2), and beside it 'Invited' while the learner has
 * not set a password: the account exists but nobody has signed in to it yet. A learner an
 * identity provider created at their first sign-on shows 'Created by sign-on' instead: they
 * sign in through the provider and never need a password.
 */
export function LearnerStatusBadge({
  status,
  passwordSetup,
  createdBySignOn = null,
  className,
}: {
  status: UserStatus;
  passwordSetup: boolean;
  createdBySignOn?: LearnerSummary["createdBySignOn"];
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
      {createdBySignOn ? (
        <Badge variant="outline" className={className}>
          <KeyRoundIcon aria-hidden="true" />
          {createdBySignOn.providerName
            ? `Created by sign-on (${createdBySignOn.providerName})`
            : "Created by sign-on"}
        </Badge>
      ) : passwordSetup ? null : (
        <Badge variant="secondary" className={className} title="Has not set a password yet">
          <MailIcon aria-hidden="true" />
          Invited
        </Badge>
      )}
    </>
  );
}
