import type { Course } from "@contract";
import { toast } from "../../../components/ui/use-toast";
import { useDeleteCourse } from "../api/delete-course";
import { COURSE_CONFIRMS, COURSE_TOASTS } from "../messages";

/**
 * Deletes a course after the browser confirmation of SPEC section 5, with the toasts of
 * section 8. Returns the action and the id of the course being deleted, if any.
 */
export function useDeleteCourseAction({ onDeleted }: { onDeleted?: () => void } = {}) {
  const deleteCourse = useDeleteCourse();

  async function remove(course: Pick<Course, "id" | "title">) {
    if (!window.confirm(COURSE_CONFIRMS.deleteCourse(course.title))) return;
    try {
      await deleteCourse.mutateAsync(course.id);
      toast({ title: COURSE_TOASTS.deleted });
      onDeleted?.();
    } catch {
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.error,
        description: COURSE_TOASTS.deleteFailedDescription,
      });
    }
  }

  return {
    remove: (course: Pick<Course, "id" | "title">) => void remove(course),
    deletingId: deleteCourse.isPending ? deleteCourse.variables : undefined,
  };
}
