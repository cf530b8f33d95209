import type { Course, LearnerSummary } from "@contract";
import { type FormEvent, useEffect, useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { useEnrollInCourses } from "../api/enroll-in-courses";
import { LEARNER_TOASTS } from "../messages";
import { CourseChecklist } from "./course-checklist";

type EnrollCoursesDialogProps = {
  /** The learner to enroll; null closes the dialog. */
  learner: LearnerSummary | null;
  onClose: () => void;
  /** Published courses; undefined while loading. */
  courses: Course[] | undefined;
};

/** Enrolls an existing learner in more published courses, one enrollment per course. */
export function EnrollCoursesDialog({ learner, onClose, courses }: EnrollCoursesDialogProps) {
  // Keep the learner while the dialog animates closed.
  const [shown, setShown] = useState(learner);
  useEffect(() => {
    if (learner) setShown(learner);
  }, [learner]);

  return (
    <Dialog
      open={learner !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Enroll in courses</DialogTitle>
          <DialogDescription>
            {shown
              ? `Choose the published courses ${shown.name} should take.`
              : "Choose published courses."}
          </DialogDescription>
        </DialogHeader>
        {shown ? <EnrollForm learner={shown} courses={courses} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EnrollForm({
  learner,
  courses,
  onDone,
}: {
  learner: LearnerSummary;
  courses: Course[] | undefined;
  onDone: () => void;
}) {
  const enroll = useEnrollInCourses();
  const single = useSingleSubmit();
  const [selected, setSelected] = useState<string[]>([]);
  const enrolledIds = new Set(learner.courses.map((c) => c.courseId));
  const available = courses?.filter((course) => !enrolledIds.has(course.id));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (selected.length === 0) return;
    try {
      const result = await single((idempotencyKey) =>
        enroll.mutateAsync({ learner, courseIds: selected, idempotencyKey }),
      );
      if (!result) return;
      const done = result.enrolled.length + result.alreadyEnrolled.length;
      if (result.failed.length > 0) {
        toast({
          variant: "destructive",
          title: LEARNER_TOASTS.error,
          description: `${result.failed.length} of ${selected.length} enrollments failed. Please try again.`,
        });
        if (done === 0) return;
      } else {
        const titles = (courses ?? [])
          .filter((c) => selected.includes(c.id))
          .map((c) => c.title)
          .join(", ");
        toast({
          title: "Learner enrolled",
          description: `${learner.name} is now enrolled in ${titles}.`,
        });
      }
      onDone();
    } catch {
      toast({
        variant: "destructive",
        title: LEARNER_TOASTS.error,
        description: "The enrollments could not be saved. Please try again.",
      });
    }
  }

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      className="grid grid-cols-1 gap-5"
      aria-label="Enroll"
    >
      <p id="enroll-courses-label" className="sr-only">
        Courses
      </p>
      <CourseChecklist
        courses={available}
        selected={selected}
        onChange={setSelected}
        idPrefix={`enroll-${learner.id}`}
        labelledBy="enroll-courses-label"
        emptyText={
          courses && courses.length > 0
            ? `${learner.name} is already enrolled in every published course.`
            : "There are no published courses yet."
        }
        disabled={enroll.isPending}
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={selected.length === 0 || enroll.isPending}>
          {enroll.isPending ? <Spinner /> : null}
          {selected.length > 1 ? `Enroll in ${selected.length} courses` : "Enroll"}
        </Button>
      </DialogFooter>
    </form>
  );
}
