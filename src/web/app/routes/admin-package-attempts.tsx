import { PACKAGE_STANDARD_LABELS } from "@contract";
import { ArrowLeftIcon, PackageIcon } from "lucide-react";
import { Link, useParams } from "react-router";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";
import { Skeleton } from "../../components/ui/skeleton";
import { useCourse } from "../../features/courses/api/get-course";
import { PackageAttemptsView } from "../../features/package-progress/components/package-attempts-view";
import { useDocumentTitle } from "../../lib/use-document-title";

/**
 * /admin/courses/:courseId/modules/:moduleId/learners: a SCORM or cmi5 module's learners,
 * with each one's status, score, times and attempts, the CSV export and the reset of an attempt.
 */
export function AdminPackageAttemptsRoute() {
  const { courseId = "", moduleId = "" } = useParams();
  const { data: course, isPending } = useCourse(courseId);
  const module = course?.modules.find((m) => m.id === moduleId);
  useDocumentTitle(module ? `${module.title}: learners` : "Learners");
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
      {isPending ? (
        <Skeleton className="h-16 rounded-xl" aria-hidden="true" />
      ) : !module?.package ? (
        <EmptyState
          titleAs="h1"
          icon={<PackageIcon />}
          title="No package module here"
          description="This module does not exist or plays a video: only SCORM and cmi5 modules keep attempts."
        />
      ) : (
        <>
          <PageHeader
            title={`${module.title}: learners`}
            description={`${PACKAGE_STANDARD_LABELS[module.package.standard]} module of ${course?.title} · each learner's current attempt`}
          />
          <PackageAttemptsView target={{ courseId, moduleId, moduleTitle: module.title }} />
        </>
      )}
    </div>
  );
}
