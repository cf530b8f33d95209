import { useSearchParams } from "react-router";
import { PageHeader } from "../../components/page-header";
import type { AuditFilters } from "../../features/audit/api/get-audit-events";
import { AuditChainCard } from "../../features/audit/components/audit-chain-card";
import { auditEventTypeOf } from "../../features/audit/components/audit-filters";
import { AuditTrailCard } from "../../features/audit/components/audit-trail-card";
import { useCourses } from "../../features/courses/api/get-courses";
import { useDocumentTitle } from "../../lib/use-document-title";

const FILTER_KEYS = ["actor", "type", "courseId", "learner", "from", "to"] as const;

/**
 * /admin/audit: the audit trail listed on screen with its filters and CSV export, and its
 * integrity check. The filters live in the address, so a filtered list can be reloaded and
 * shared.
 */
export function AdminAuditRoute() {
  useDocumentTitle("Audit trail");
  const { data: courses } = useCourses();
  const [params, setParams] = useSearchParams();
  const filters: AuditFilters = {
    actor: params.get("actor") || undefined,
    type: auditEventTypeOf(params.get("type")),
    courseId: params.get("courseId") || undefined,
    learner: params.get("learner") || undefined,
    from: params.get("from") || undefined,
    to: params.get("to") || undefined,
  };
  function setFilters(next: AuditFilters) {
    const query = new URLSearchParams();
    for (const key of FILTER_KEYS) {
      const value = next[key];
      if (value) query.set(key, value);
    }
    setParams(query, { replace: true });
  }
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <PageHeader
        title="Audit trail"
        description="The append-only record of every change to courses and every event that matters for credit."
      />
      <AuditTrailCard filters={filters} onFiltersChange={setFilters} courses={courses} />
      <AuditChainCard />
    </div>
  );
}
