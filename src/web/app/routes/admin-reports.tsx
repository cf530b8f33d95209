import { ScrollTextIcon } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
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
        actions={
          <>
            {/* The audit trail's export and integrity check. */}
            <Button asChild variant="outline">
              <Link to="/admin/audit">
                <ScrollTextIcon aria-hidden="true" />
                Audit trail
              </Link>
            </Button>
            <ExportReportButton />
          </>
        }
      />
      <ReportsView />
    </div>
  );
}
