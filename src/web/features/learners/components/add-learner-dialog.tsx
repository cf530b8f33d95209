import { type Course, registerBodySchema } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
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
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { useAddLearner } from "../api/add-learner";
import { LEARNER_TOASTS } from "../messages";
import { CourseChecklist } from "./course-checklist";

/** SPEC section 5 "Add learner", from the contract's register schema. */
const addLearnerFormSchema = z.object({
  name: registerBodySchema.shape.name,
  email: registerBodySchema.shape.email,
  phone: z.string().trim().max(40, "Use at most 40 characters"),
  courseIds: z.array(z.string()),
});

type AddLearnerFormInput = z.input<typeof addLearnerFormSchema>;
type AddLearnerFormOutput = z.output<typeof addLearnerFormSchema>;

type AddLearnerDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Published courses to enroll the learner in; undefined while loading. */
  courses: Course[] | undefined;
  trigger?: ReactNode;
};

export function AddLearnerDialog({ open, onOpenChange, courses, trigger }: AddLearnerDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Add Learner</DialogTitle>
          <DialogDescription>
            Register the learner's email. They receive an invitation to set their own password.
          </DialogDescription>
        </DialogHeader>
        <AddLearnerForm courses={courses} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function AddLearnerForm({
  courses,
  onDone,
}: {
  courses: Course[] | undefined;
  onDone: () => void;
}) {
  const addLearner = useAddLearner();
  const single = useSingleSubmit();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<AddLearnerFormInput, unknown, AddLearnerFormOutput>({
    resolver: zodResolver(addLearnerFormSchema),
    defaultValues: { name: "", email: "", phone: "", courseIds: [] },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const added = await single((idempotencyKey) =>
        addLearner.mutateAsync({
          name: values.name,
          email: values.email,
          phone: values.phone || null,
          courseIds: values.courseIds,
          idempotencyKey,
        }),
      );
      if (!added) return;
      const { user, failedCourseIds } = added;
      const failed = failedCourseIds.length;
      toast({
        title: LEARNER_TOASTS.added,
        description:
          LEARNER_TOASTS.addedDescription(user.email) +
          (failed > 0
            ? ` ${failed} ${failed === 1 ? "course" : "courses"} could not be assigned; try again from the Learners page.`
            : ""),
      });
      onDone();
    } catch (error) {
      // A duplicate email is worth naming; anything else gets the spec's text.
      toast({
        variant: "destructive",
        title: LEARNER_TOASTS.addFailed,
        description:
          (isApiError(error, "auth.email_taken") ? getErrorMessage(error) : undefined) ??
          LEARNER_TOASTS.addFailedDescription,
      });
    }
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Add learner"
      className="grid grid-cols-1 gap-5"
    >
      <Field id="learner-name" label="Full name" error={errors.name?.message}>
        <Input
          id="learner-name"
          autoComplete="off"
          placeholder="e.g. Jordan Lee"
          required
          {...fieldAria("learner-name", errors.name)}
          {...register("name")}
        />
      </Field>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Field id="learner-email" label="Email" error={errors.email?.message}>
          <Input
            id="learner-email"
            type="email"
            autoComplete="off"
            placeholder="name@example.com"
            required
            {...fieldAria("learner-email", errors.email)}
            {...register("email")}
          />
        </Field>
        <Field
          id="learner-phone"
          label={
            <>
              Phone <span className="font-normal text-zinc-500">(optional)</span>
            </>
          }
          error={errors.phone?.message}
        >
          <Input
            id="learner-phone"
            type="tel"
            autoComplete="off"
            placeholder="+1 555 0100"
            {...fieldAria("learner-phone", errors.phone)}
            {...register("phone")}
          />
        </Field>
      </div>
      <div className="grid grid-cols-1 gap-2">
        <div className="flex items-baseline justify-between gap-2">
          <p id="learner-courses-label" className="text-sm leading-none font-medium text-zinc-800">
            Courses <span className="font-normal text-zinc-500">(optional)</span>
          </p>
        </div>
        <Controller
          control={control}
          name="courseIds"
          render={({ field }) => (
            <CourseChecklist
              courses={courses}
              selected={field.value}
              onChange={field.onChange}
              idPrefix="add-learner-course"
              labelledBy="learner-courses-label"
              emptyText="No published courses yet. You can enroll the learner later."
              disabled={addLearner.isPending}
            />
          )}
        />
      </div>
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={addLearner.isPending}>
          {addLearner.isPending ? <Spinner /> : null}
          Add Learner
        </Button>
      </DialogFooter>
    </form>
  );
}
