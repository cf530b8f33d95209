import type { Course } from "@contract";
import type { ReactNode } from "react";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../../components/ui/dialog";
import { toast } from "../../../components/ui/use-toast";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { useCreateCourse } from "../api/create-course";
import { COURSE_TOASTS } from "../messages";
import { CourseForm } from "./course-form";

type CreateCourseDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The signed-in administrator's id, recorded as the course's author. */
  createdBy: string;
  /** Called with the new course after the success toast. */
  onCreated?: (course: Course) => void;
  /** The button that opens it; focus returns there on close. */
  trigger?: ReactNode;
};

export function CreateCourseDialog({
  open,
  onOpenChange,
  createdBy,
  onCreated,
  trigger,
}: CreateCourseDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Create Course</DialogTitle>
          <DialogDescription>
            Courses start as drafts. Add modules, then publish when it is ready for learners.
          </DialogDescription>
        </DialogHeader>
        <CreateCourseForm
          createdBy={createdBy}
          onCreated={(course) => {
            onOpenChange(false);
            onCreated?.(course);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function CreateCourseForm({
  createdBy,
  onCreated,
}: {
  createdBy: string;
  onCreated: (course: Course) => void;
}) {
  const createCourse = useCreateCourse();
  const single = useSingleSubmit();
  return (
    <CourseForm
      idPrefix="course"
      label="Create course"
      submitLabel="Create Course"
      pending={createCourse.isPending}
      onSubmit={async (values) => {
        try {
          const course = await single((idempotencyKey) =>
            createCourse.mutateAsync({ ...values, createdBy, modules: [], idempotencyKey }),
          );
          // A second click while the first was under way: the first one answers.
          if (!course) return;
          toast({ title: COURSE_TOASTS.created });
          onCreated(course);
        } catch {
          toast({
            variant: "destructive",
            title: COURSE_TOASTS.createFailed,
            description: COURSE_TOASTS.createFailedDescription,
          });
        }
      }}
    />
  );
}
