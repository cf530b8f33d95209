import { PageHeader } from "../../components/page-header";
import { ExportReportButton, ReportsView } from "../../features/reports/components/reports-view";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/reports: reports and analytics (SPEC section 2). */
export function AdminReportsRoute() {
  useDocumentTitle("Reports");
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <PageHeader
        title="Reports"
        description="Enrollments, completions and progress across courses."
        actions={<ExportReportButton />}
      />
      <ReportsView />
    </div>
  );
}
