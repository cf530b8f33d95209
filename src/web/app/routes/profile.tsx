import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeftIcon } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
import { AccountInfoCard } from "../../features/auth/components/account-info-card";
import { ChangePasswordCard } from "../../features/auth/components/change-password-card";
import { OwnSessionsCard } from "../../features/auth/components/own-sessions-card";
import { ProfileDetailsCard } from "../../features/auth/components/profile-details-card";
import { homePathFor, useCurrentUser } from "../../features/auth/session-context";
import { getMyCertificatesQueryOptions } from "../../features/certificates/api/get-my-certificates";
import { IdentifiersCard } from "../../features/credit/components/learner/identifiers-card";
import { myEnrollmentsQueryKey } from "../../features/learning/api/get-my-enrollments";
import { SecondFactorCard } from "../../features/second-factor/components/second-factor-card";
import { LinkedProvidersCard } from "../../features/sign-on/components/linked-providers-card";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /profile for any signed-in user (SPEC sections 2 and 5). */
export function ProfileRoute() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  useDocumentTitle("Profile");

  return (
    <div className="grid gap-6 sm:gap-8">
      <div className="grid gap-4">
        <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-zinc-600">
          <Link to={homePathFor(user)}>
            <ArrowLeftIcon aria-hidden="true" />
            Back to dashboard
          </Link>
        </Button>
        <PageHeader title="Profile" description="Manage your personal details and password." />
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid gap-6">
          <ProfileDetailsCard user={user} />
          {user.role === "learner" ? (
            <IdentifiersCard
              onSaved={() => {
                // A course that waited only for the licence completes and issues its certificate.
                void queryClient.invalidateQueries({ queryKey: myEnrollmentsQueryKey(user.id) });
                void queryClient.invalidateQueries({
                  queryKey: getMyCertificatesQueryOptions().queryKey,
                });
              }}
            />
          ) : null}
          {user.role === "admin" ? <LinkedProvidersCard /> : null}
          <ChangePasswordCard user={user} />
          {user.role === "admin" ? <SecondFactorCard /> : null}
          <OwnSessionsCard />
        </div>
        <div className="order-first lg:sticky lg:top-10 lg:order-none">
          <AccountInfoCard user={user} />
        </div>
      </div>
    </div>
  );
}
