import { PageHeader } from "../../components/page-header";
import { ReminderSettingsCard } from "../../features/reminders/components/reminder-settings-card";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/settings: portal-wide settings (learner reminders). */
export function AdminSettingsRoute() {
  useDocumentTitle("Settings");
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <PageHeader title="Settings" description="How the portal behaves for every learner." />
      <ReminderSettingsCard />
    </div>
  );
}
