import { BookPlusIcon, UserPlusIcon } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
import { useCurrentUser } from "../../features/auth/session-context";
import { useCourses } from "../../features/courses/api/get-courses";
import { CreateCourseDialog } from "../../features/courses/components/create-course-dialog";
import { RecentCoursesCard } from "../../features/courses/components/recent-courses-card";
import { DashboardStatCards } from "../../features/dashboard/components/dashboard-stat-cards";
import { SetupChecklistCard } from "../../features/dashboard/components/setup-checklist-card";
import { AddLearnerDialog } from "../../features/learners/components/add-learner-dialog";
import { RecentLearnersCard } from "../../features/learners/components/recent-learners-card";
import { greetingName, sentence } from "../../lib/format";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin: the admin dashboard (SPEC section 2). */
export function AdminDashboardRoute() {
  useDocumentTitle("Dashboard");
  const user = useCurrentUser();
  const navigate = useNavigate();
  const { data: courses } = useCourses();
  const [createOpen, setCreateOpen] = useState(false);
  const [addLearnerOpen, setAddLearnerOpen] = useState(false);
  const firstName = greetingName(user.name);

  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <PageHeader
        title="Dashboard"
        description={`${sentence(`Welcome back, ${firstName}`)} Here is how your courses and learners are doing.`}
        actions={
          <>
            <AddLearnerDialog
              open={addLearnerOpen}
              onOpenChange={setAddLearnerOpen}
              courses={courses?.filter((course) => course.isPublished)}
              trigger={
                <Button variant="outline">
                  <UserPlusIcon aria-hidden="true" />
                  Add Learner
                </Button>
              }
            />
            <CreateCourseDialog
              open={createOpen}
              onOpenChange={setCreateOpen}
              createdBy={user.id}
              onCreated={(course) => navigate(`/admin/courses/${encodeURIComponent(course.id)}`)}
              trigger={
                <Button>
                  <BookPlusIcon aria-hidden="true" />
                  Create Course
                </Button>
              }
            />
          </>
        }
      />
      <SetupChecklistCard />
      <DashboardStatCards />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <RecentCoursesCard onCreateCourse={() => setCreateOpen(true)} />
        <RecentLearnersCard onAddLearner={() => setAddLearnerOpen(true)} />
      </div>
    </div>
  );
}
