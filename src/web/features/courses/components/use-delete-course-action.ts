import type { Course } from "@contract";
import { useConfirm } from "../../../components/ui/confirm-dialog";
import { toast } from "../../../components/ui/use-toast";
import { useDeleteCourse } from "../api/delete-course";
import { COURSE_CONFIRMS, COURSE_TOASTS } from "../messages";

/**
 * Deletes a course after the confirmation of SPEC section 5 (the portal's own dialog, with
 * the spec's text), with the toasts of section 8. Returns the action, the id of the course
 * being deleted, if any, and the confirmation to render.
 */
export function useDeleteCourseAction({ onDeleted }: { onDeleted?: () => void } = {}) {
  const deleteCourse = useDeleteCourse();
  const [confirm, confirmDialog] = useConfirm();

  async function remove(course: Pick<Course, "id" | "title">) {
    const confirmed = await confirm({
      title: "Delete course?",
      message: COURSE_CONFIRMS.deleteCourse(course.title),
      confirmLabel: "Delete course",
    });
    if (!confirmed) return;
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
    confirmDialog,
  };
}
