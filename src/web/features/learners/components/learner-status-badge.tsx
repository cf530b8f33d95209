import type { UserStatus } from "@contract";
import { BanIcon, CircleCheckIcon } from "lucide-react";
import { Badge } from "../../../components/ui/badge";

/** 'Active' or 'Restricted' (SPEC section 2). */
export function LearnerStatusBadge({
  status,
  className,
}: {
  status: UserStatus;
  className?: string;
}) {
  return status === "active" ? (
    <Badge variant="success" className={className}>
      <CircleCheckIcon aria-hidden="true" />
      Active
    </Badge>
  ) : (
    <Badge variant="destructive" className={className}>
      <BanIcon aria-hidden="true" />
      Restricted
    </Badge>
  );
}
