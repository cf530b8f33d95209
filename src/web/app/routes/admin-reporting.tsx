import { useSearchParams } from "react-router";
import { PageHeader } from "../../components/page-header";
import { ReportingView } from "../../features/reporting/components/reporting-view";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/reporting: completions reported to the regulators (ACCME PARS, CE Broker, CPE Monitor). */
export function AdminReportingRoute() {
  useDocumentTitle("Reporting");
  const [params] = useSearchParams();
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <PageHeader
        title="Reporting"
        description="Report learners' completions to the systems their licensing boards read."
      />
      <ReportingView courseId={params.get("courseId") ?? undefined} />
    </div>
  );
}
