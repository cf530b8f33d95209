import { PageHeader } from "../../components/page-header";
import { CreditCatalogueSettingsCard } from "../../features/credit/components/catalogue/credit-catalogue-settings-card";
import { OrganisationSettingsCard } from "../../features/organisation/components/organisation-settings-card";
import { ReminderSettingsCard } from "../../features/reminders/components/reminder-settings-card";
import { SecondFactorPolicyCard } from "../../features/second-factor/components/second-factor-policy-card";
import { SingleSignOnCard } from "../../features/sign-on/components/single-sign-on-card";
import { useDocumentTitle } from "../../lib/use-document-title";

/**
 * /admin/settings: portal-wide settings (the issuing organisation, the credit catalogue,
 * learner reminders, administrators' sign-in, single sign-on).
 */
export function AdminSettingsRoute() {
  useDocumentTitle("Settings");
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <PageHeader
        title="Settings"
        description="Who the portal issues certificates as, and how it behaves for every learner."
      />
      <OrganisationSettingsCard />
      <CreditCatalogueSettingsCard />
      <ReminderSettingsCard />
      <SecondFactorPolicyCard />
      <SingleSignOnCard />
    </div>
  );
}
