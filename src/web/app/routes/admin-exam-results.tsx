import { ArrowLeftIcon } from "lucide-react";
import { Link, useParams } from "react-router";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
import {
  ExamResultsDownloads,
  ExamResultsView,
} from "../../features/assessments/components/admin/exam-results-view";
import { useCourse } from "../../features/courses/api/get-course";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/courses/:courseId/exam-results: a course's final-exam results and item analysis. */
export function AdminExamResultsRoute() {
  const { courseId = "" } = useParams();
  const { data: course } = useCourse(courseId);
  useDocumentTitle(course ? `${course.title}: exam results` : "Exam results");
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2 text-zinc-700">
          <Link to={`/admin/courses/${courseId}`}>
            <ArrowLeftIcon aria-hidden="true" />
            {course?.title ?? "Course"}
          </Link>
        </Button>
      </div>
      <PageHeader
        title="Exam results"
        description={course ? `${course.title} · final exam` : "Final exam"}
        actions={<ExamResultsDownloads courseId={courseId} />}
      />
      <ExamResultsView courseId={courseId} />
    </div>
  );
}
