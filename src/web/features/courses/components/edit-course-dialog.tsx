import type { Course } from "@contract";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useUpdateCourse } from "../api/update-course";
import { COURSE_TOASTS } from "../messages";
import { CourseForm } from "./course-form";

/**
 * The Create Course form pre-filled with a course's details, to change them. `course` stays
 * set while the dialog animates closed; focus returns to the control that opened it.
 */
export function EditCourseDialog({
  course,
  open,
  onOpenChange,
}: {
  course: Course | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open && course !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Edit Course</DialogTitle>
          <DialogDescription>
            {course?.isPublished
              ? "Learners see the changes as soon as you save them."
              : "Changes are saved to the draft."}
          </DialogDescription>
        </DialogHeader>
        {course ? (
          <EditCourseForm
            // A different course starts from its own values.
            key={course.id}
            course={course}
            onSaved={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function EditCourseForm({ course, onSaved }: { course: Course; onSaved: () => void }) {
  const updateCourse = useUpdateCourse();
  return (
    <CourseForm
      idPrefix="edit-course"
      label="Edit course"
      submitLabel="Save Changes"
      pending={updateCourse.isPending}
      defaultValues={{
        title: course.title,
        description: course.description,
        category: course.category,
        duration: course.duration,
        thumbnail: course.thumbnail,
      }}
      onSubmit={async (values) => {
        try {
          await updateCourse.mutateAsync({ courseId: course.id, course: values });
          toast({ title: COURSE_TOASTS.updated });
          onSaved();
        } catch (error) {
          toast({
            variant: "destructive",
            title: COURSE_TOASTS.updateFailed,
            description: getErrorMessage(error) ?? COURSE_TOASTS.createFailedDescription,
          });
        }
      }}
    />
  );
}
