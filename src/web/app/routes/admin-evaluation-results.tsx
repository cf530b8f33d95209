import { ArrowLeftIcon } from "lucide-react";
import { Link, useParams } from "react-router";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
import { useCourse } from "../../features/courses/api/get-course";
import { useEvaluationResults } from "../../features/credit/api/admin-get-evaluation-results";
import {
  EvaluationResultsDownload,
  EvaluationResultsView,
} from "../../features/credit/components/admin/evaluation-results-view";
import { plural } from "../../lib/format";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/courses/:courseId/evaluation-results: what learners said in the course evaluation. */
export function AdminEvaluationResultsRoute() {
  const { courseId = "" } = useParams();
  const { data: course } = useCourse(courseId);
  const { data: results } = useEvaluationResults(courseId);
  useDocumentTitle(course ? `${course.title}: evaluation results` : "Evaluation results");
  const responses = results ? plural(results.responses, "response") : null;
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2 max-w-full text-zinc-700">
          <Link to={`/admin/courses/${courseId}`}>
            <ArrowLeftIcon aria-hidden="true" />
            <span className="truncate">{course?.title ?? "Course"}</span>
          </Link>
        </Button>
      </div>
      <PageHeader
        title="Evaluation results"
        description={
          <span data-testid="evaluation-responses">
            {[course?.title, responses, "anonymous"].filter(Boolean).join(" · ")}
          </span>
        }
        actions={
          results && results.responses > 0 ? (
            <EvaluationResultsDownload courseId={courseId} />
          ) : null
        }
      />
      <EvaluationResultsView courseId={courseId} />
    </div>
  );
}
