import { PageHeader } from "../../components/page-header";
import { AuditChainCard } from "../../features/audit/components/audit-chain-card";
import { AuditExportCard } from "../../features/audit/components/audit-export-card";
import { useCourses } from "../../features/courses/api/get-courses";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/audit: the audit trail's CSV export and its integrity check. */
export function AdminAuditRoute() {
  useDocumentTitle("Audit trail");
  const { data: courses } = useCourses();
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <PageHeader
        title="Audit trail"
        description="The append-only record of every event that matters for credit."
      />
      <AuditExportCard courses={courses} />
      <AuditChainCard />
    </div>
  );
}
