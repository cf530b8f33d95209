import { CATEGORIES, type Course, createCourseBodySchema } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { FileUploader } from "../../../components/file-uploader/file-uploader";
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
import { Label } from "../../../components/ui/label";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "../../../components/ui/select";
import { Spinner } from "../../../components/ui/spinner";
import { Textarea } from "../../../components/ui/textarea";
import { toast } from "../../../components/ui/use-toast";
import { useCreateCourse } from "../api/create-course";
import { COURSE_TOASTS } from "../messages";

/** SPEC section 5 "Create course", from the contract schema the server validates with. */
const courseFormSchema = createCourseBodySchema
  .pick({ title: true, description: true, duration: true })
  .extend({
    category: z.enum(CATEGORIES, { error: "Category is required" }),
    thumbnail: z.string().nullable(),
  });

type CourseFormInput = z.input<typeof courseFormSchema>;
type CourseFormOutput = z.output<typeof courseFormSchema>;

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
  const [uploading, setUploading] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<CourseFormInput, unknown, CourseFormOutput>({
    resolver: zodResolver(courseFormSchema),
    defaultValues: { title: "", description: "", thumbnail: null },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const course = await createCourse.mutateAsync({
        title: values.title,
        description: values.description,
        category: values.category,
        duration: values.duration,
        thumbnail: values.thumbnail,
        createdBy,
        modules: [],
      });
      toast({ title: COURSE_TOASTS.created });
      onCreated(course);
    } catch {
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.createFailed,
        description: COURSE_TOASTS.createFailedDescription,
      });
    }
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Create course"
      className="grid grid-cols-1 gap-5"
    >
      <Field id="course-title" label="Course title" error={errors.title?.message}>
        <Input
          id="course-title"
          placeholder="e.g. Introduction to SQL"
          autoComplete="off"
          required
          {...fieldAria("course-title", errors.title)}
          {...register("title")}
        />
      </Field>
      <Field id="course-description" label="Description" error={errors.description?.message}>
        <Textarea
          id="course-description"
          placeholder="What will learners be able to do after this course?"
          required
          {...fieldAria("course-description", errors.description)}
          {...register("description")}
        />
      </Field>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Field id="course-category" label="Category" error={errors.category?.message}>
          <Controller
            control={control}
            name="category"
            render={({ field }) => (
              <Select value={field.value ?? ""} onValueChange={field.onChange}>
                <SelectTrigger
                  id="course-category"
                  ref={field.ref}
                  onBlur={field.onBlur}
                  {...fieldAria("course-category", errors.category)}
                >
                  <SelectValue placeholder="Choose a category" />
                </SelectTrigger>
                <SelectContent>
                  {CATEGORIES.map((category) => (
                    <SelectItem key={category} value={category}>
                      {category}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </Field>
        <Field
          id="course-duration"
          label="Duration (hours)"
          error={errors.duration?.message}
          hint="Whole hours, at least 1"
        >
          <Input
            id="course-duration"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            placeholder="e.g. 8"
            required
            {...fieldAria("course-duration", errors.duration, { hint: true })}
            {...register("duration", { valueAsNumber: true })}
          />
        </Field>
      </div>
      <div className="grid grid-cols-1 gap-2">
        <div className="flex items-baseline justify-between gap-2">
          <Label id="course-thumbnail-label">Thumbnail</Label>
          <span className="text-xs text-zinc-500">Optional</span>
        </div>
        <Controller
          control={control}
          name="thumbnail"
          render={({ field }) => (
            <FileUploader
              kind="thumbnail"
              value={field.value ?? null}
              onChange={field.onChange}
              onBusyChange={setUploading}
              labelledBy="course-thumbnail-label"
              removable
            />
          )}
        />
      </div>
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={createCourse.isPending || uploading}>
          {createCourse.isPending ? <Spinner /> : null}
          {uploading ? "Waiting for upload..." : "Create Course"}
        </Button>
      </DialogFooter>
    </form>
  );
}
