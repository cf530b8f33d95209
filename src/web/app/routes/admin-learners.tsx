import {
  BookCheckIcon,
  FileUpIcon,
  GraduationCapIcon,
  UserPlusIcon,
  UsersIcon,
} from "lucide-react";
import { useState } from "react";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
import { StatCard } from "../../components/ui/stat-card";
import { useCourses } from "../../features/courses/api/get-courses";
import { useAdminStats } from "../../features/dashboard/api/get-admin-stats";
import { AddLearnerDialog } from "../../features/learners/components/add-learner-dialog";
import { ImportLearnersDialog } from "../../features/learners/components/import-learners-dialog";
import { LearnersList } from "../../features/learners/components/learners-list";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/learners: learners management (SPEC section 2). */
export function AdminLearnersRoute() {
  useDocumentTitle("Learners");
  const { data: stats, isError: statsFailed } = useAdminStats();
  const { data: courses } = useCourses();
  const publishedCourses = courses?.filter((course) => course.isPublished);
  const [addOpen, setAddOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const figure = (n: number | undefined) => (statsFailed ? "—" : n);

  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <PageHeader
        title="Learners"
        description="Registered learners, their courses and their progress."
        actions={
          <div className="flex flex-wrap gap-2">
            <ImportLearnersDialog
              open={importOpen}
              onOpenChange={setImportOpen}
              trigger={
                <Button variant="outline">
                  <FileUpIcon aria-hidden="true" />
                  Import CSV
                </Button>
              }
            />
            <AddLearnerDialog
              open={addOpen}
              onOpenChange={setAddOpen}
              courses={publishedCourses}
              trigger={
                <Button>
                  <UserPlusIcon aria-hidden="true" />
                  Add Learner
                </Button>
              }
            />
          </div>
        }
      />
      <section aria-label="Totals" className="grid grid-cols-3 gap-3 sm:gap-4">
        <StatCard
          label="Learners"
          value={figure(stats?.totalLearners)}
          icon={<UsersIcon />}
          tone="sky"
        />
        <StatCard
          label="Enrollments"
          value={figure(stats?.totalEnrollments)}
          icon={<BookCheckIcon />}
          tone="indigo"
        />
        <StatCard
          label="Completions"
          value={figure(stats?.completions)}
          icon={<GraduationCapIcon />}
          tone="emerald"
        />
      </section>
      <LearnersList onAddLearner={() => setAddOpen(true)} publishedCourses={publishedCourses} />
    </div>
  );
}
