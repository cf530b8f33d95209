import type { Course, LearnerSummary } from "@contract";
import { type FormEvent, useId, useState } from "react";
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
import { Label } from "../../../components/ui/label";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "../../../components/ui/select";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { plural } from "../../../lib/format";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { useBulkEnroll } from "../api/bulk-enroll";
import { LEARNER_TOASTS } from "../messages";

type BulkEnrollDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The selected learners. */
  learners: LearnerSummary[];
  /** Published courses; undefined while loading. */
  courses: Course[] | undefined;
  onEnrolled: () => void;
};

/** Enrolls every selected learner in one published course, in one request. */
export function BulkEnrollDialog({
  open,
  onOpenChange,
  learners,
  courses,
  onEnrolled,
}: BulkEnrollDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Enroll in course</DialogTitle>
          <DialogDescription>
            Choose the published course the {plural(learners.length, "selected learner")} should
            take. Learners already enrolled in it are left as they are.
          </DialogDescription>
        </DialogHeader>
        {open ? (
          <BulkEnrollForm
            learners={learners}
            courses={courses}
            onDone={() => {
              onEnrolled();
              onOpenChange(false);
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function BulkEnrollForm({
  learners,
  courses,
  onDone,
}: {
  learners: LearnerSummary[];
  courses: Course[] | undefined;
  onDone: () => void;
}) {
  const selectId = useId();
  const enroll = useBulkEnroll();
  const [courseId, setCourseId] = useState("");
  // One key per opening of the dialog: a double click enrolls and reports once.
  const single = useSingleSubmit();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const course = courses?.find((c) => c.id === courseId);
    if (!course || learners.length === 0) return;
    try {
      const result = await single((idempotencyKey) =>
        enroll.mutateAsync({
          courseId,
          userIds: learners.map((learner) => learner.id),
          idempotencyKey,
        }),
      );
      if (!result) return;
      const already = result.alreadyEnrolled.length;
      toast({
        title: "Learners enrolled",
        description: `${plural(result.enrolled.length, "learner")} enrolled in ${course.title}${
          already ? `; ${plural(already, "learner was", "learners were")} already enrolled` : ""
        }.`,
      });
      onDone();
    } catch (error) {
      toast({
        variant: "destructive",
        title: LEARNER_TOASTS.error,
        description: getErrorMessage(error) ?? "The enrollments could not be saved.",
      });
    }
  }

  const noCourses = courses !== undefined && courses.length === 0;

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="grid grid-cols-1 gap-5">
      <div className="grid gap-2">
        <Label htmlFor={selectId}>Course</Label>
        <Select value={courseId} onValueChange={setCourseId} disabled={!courses || noCourses}>
          <SelectTrigger id={selectId}>
            <SelectValue
              placeholder={
                noCourses ? "There are no published courses yet" : "Choose a published course"
              }
            />
          </SelectTrigger>
          <SelectContent>
            {courses?.map((course) => (
              <SelectItem key={course.id} value={course.id}>
                {course.title}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={!courseId || enroll.isPending}>
          {enroll.isPending ? <Spinner /> : null}
          Enroll {plural(learners.length, "learner")}
        </Button>
      </DialogFooter>
    </form>
  );
}
