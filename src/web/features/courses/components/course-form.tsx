import { CATEGORIES, createCourseBodySchema } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { FileUploader } from "../../../components/file-uploader/file-uploader";
import { Button } from "../../../components/ui/button";
import { DialogClose, DialogFooter } from "../../../components/ui/dialog";
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

/** SPEC section 5 "Create course", from the contract schema the server validates with. */
const courseFormSchema = createCourseBodySchema
  .pick({ title: true, description: true, duration: true })
  .extend({
    category: z.enum(CATEGORIES, { error: "Category is required" }),
    thumbnail: z.string().nullable(),
  });

type CourseFormInput = z.input<typeof courseFormSchema>;
type CourseFormValues = z.output<typeof courseFormSchema>;

/**
 * A course's title, description, category, duration and thumbnail: the Create Course form,
 * and the same form pre-filled to edit a course. `idPrefix` keeps field ids unique per form.
 */
export function CourseForm({
  idPrefix,
  label,
  defaultValues,
  submitLabel,
  pending,
  onSubmit,
}: {
  idPrefix: string;
  /** The form's accessible name. */
  label: string;
  defaultValues?: Partial<CourseFormInput>;
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: CourseFormValues) => Promise<void>;
}) {
  const [uploading, setUploading] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<CourseFormInput, unknown, CourseFormValues>({
    resolver: zodResolver(courseFormSchema),
    defaultValues: { title: "", description: "", thumbnail: null, ...defaultValues },
  });
  const id = (field: string) => `${idPrefix}-${field}`;

  return (
    <form
      onSubmit={handleSubmit(onSubmit)}
      noValidate
      aria-label={label}
      className="grid grid-cols-1 gap-5"
    >
      <Field id={id("title")} label="Course title" error={errors.title?.message}>
        <Input
          id={id("title")}
          placeholder="e.g. Introduction to SQL"
          autoComplete="off"
          required
          {...fieldAria(id("title"), errors.title)}
          {...register("title")}
        />
      </Field>
      <Field id={id("description")} label="Description" error={errors.description?.message}>
        <Textarea
          id={id("description")}
          placeholder="What will learners be able to do after this course?"
          required
          {...fieldAria(id("description"), errors.description)}
          {...register("description")}
        />
      </Field>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Field id={id("category")} label="Category" error={errors.category?.message}>
          <Controller
            control={control}
            name="category"
            render={({ field }) => (
              <Select value={field.value ?? ""} onValueChange={field.onChange}>
                <SelectTrigger
                  id={id("category")}
                  ref={field.ref}
                  onBlur={field.onBlur}
                  {...fieldAria(id("category"), errors.category)}
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
          id={id("duration")}
          label="Duration (hours)"
          error={errors.duration?.message}
          hint="Whole hours, at least 1"
        >
          <Input
            id={id("duration")}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            placeholder="e.g. 8"
            required
            {...fieldAria(id("duration"), errors.duration, { hint: true })}
            {...register("duration", { valueAsNumber: true })}
          />
        </Field>
      </div>
      <div className="grid grid-cols-1 gap-2">
        <div className="flex items-baseline justify-between gap-2">
          <Label id={id("thumbnail-label")}>Thumbnail</Label>
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
              labelledBy={id("thumbnail-label")}
              currentLabel="Current thumbnail"
              removable
            />
          )}
        />
      </div>
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={pending || uploading}>
          {pending ? <Spinner /> : null}
          {uploading ? "Waiting for upload..." : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
