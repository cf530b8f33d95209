import type { User } from "@contract";
import { Badge } from "../../../components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card";
import { UserAvatar } from "../../../components/user-avatar";
import { useDates } from "../../../lib/dates";

/** SPEC section 2 "Profile": account type, member since and status. */
export function AccountInfoCard({ user }: { user: User }) {
  const dates = useDates();
  return (
    <Card>
      <CardContent className="flex items-center gap-4 border-b border-zinc-100">
        <UserAvatar name={user.name} className="size-14 text-lg" />
        <div className="grid min-w-0 gap-0.5">
          <p className="truncate text-base font-semibold text-zinc-950">{user.name}</p>
          <p className="truncate text-sm text-zinc-600">{user.email}</p>
        </div>
      </CardContent>
      <CardHeader className="pt-5 sm:pt-5">
        <CardTitle>Account information</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 text-sm">
          <div className="flex items-center justify-between gap-4">
            <dt className="text-zinc-600">Account type</dt>
            <dd className="font-medium text-zinc-900">
              {user.role === "admin" ? "Administrator" : "Learner"}
            </dd>
          </div>
          <div className="flex items-center justify-between gap-4">
            <dt className="text-zinc-600">Member since</dt>
            <dd className="font-medium text-zinc-900">{dates.date(user.createdAt)}</dd>
          </div>
          <div className="flex items-center justify-between gap-4">
            <dt className="text-zinc-600">Status</dt>
            <dd>
              {user.status === "active" ? (
                <Badge variant="success">Active</Badge>
              ) : (
                <Badge variant="destructive">Restricted</Badge>
              )}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
