import type { Course } from "@contract";
import { EyeOffIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useUnpublishCourse } from "../api/unpublish-course";
import { COURSE_TOASTS } from "../messages";

/**
 * 'Unpublish' beside the Published badge, confirmed first: the course goes back to draft and
 * its learners lose access (not their records) until it is published again.
 */
export function UnpublishCourseDialog({
  course,
  onUnpublished,
}: {
  course: Course;
  /** Takes the keyboard focus on: this dialog's trigger is gone once the course is a draft. */
  onUnpublished: () => void;
}) {
  const unpublish = useUnpublishCourse();
  const [open, setOpen] = useState(false);

  async function onConfirm() {
    try {
      await unpublish.mutateAsync(course.id);
      setOpen(false);
      onUnpublished();
      toast({
        title: COURSE_TOASTS.unpublished,
        description: COURSE_TOASTS.unpublishedDescription,
      });
    } catch (error) {
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.unpublishFailed,
        description: getErrorMessage(error) ?? "The course could not be unpublished.",
      });
    }
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <EyeOffIcon aria-hidden="true" />
          Unpublish
        </Button>
      </DialogTrigger>
      <DialogContent
        className="max-w-md"
        onCloseAutoFocus={(event) => {
          if (unpublish.isSuccess) event.preventDefault();
        }}
      >
        <DialogHeader>
          <DialogTitle>Unpublish this course?</DialogTitle>
          <DialogDescription>
            “{course.title}” goes back to draft. Enrolled learners keep their progress and
            certificates, but they cannot open the course until you publish it again: their
            dashboard shows it as unavailable. New learners cannot be enrolled while it is a draft.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={unpublish.isPending}
            onClick={() => void onConfirm()}
          >
            {unpublish.isPending ? <Spinner /> : null}
            Unpublish Course
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
