import { BookPlusIcon } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
import { useCurrentUser } from "../../features/auth/session-context";
import { CoursesList } from "../../features/courses/components/courses-list";
import { CreateCourseDialog } from "../../features/courses/components/create-course-dialog";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/courses: the all-courses list (SPEC section 2). */
export function AdminCoursesRoute() {
  useDocumentTitle("Courses");
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [createOpen, setCreateOpen] = useState(false);
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <PageHeader
        title="Courses"
        description="Create, publish and manage your courses."
        actions={
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
        }
      />
      <CoursesList onCreateCourse={() => setCreateOpen(true)} />
    </div>
  );
}
