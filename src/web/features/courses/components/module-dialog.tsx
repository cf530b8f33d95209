import {
  formatWatchSeconds,
  lengthMismatch,
  lengthMismatchText,
  type Module,
  minutesOfVideo,
  moduleBodySchema,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { CircleAlertIcon } from "lucide-react";
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
} from "../../../components/ui/dialog";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Label } from "../../../components/ui/label";
import { Spinner } from "../../../components/ui/spinner";
import { Textarea } from "../../../components/ui/textarea";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { newModuleId, useAddModule } from "../api/add-module";
import { useUpdateModule } from "../api/update-module";
import { COURSE_TOASTS } from "../messages";

/** SPEC section 5 "Module form", from the contract schema; the video is checked on submit. */
const moduleFormSchema = moduleBodySchema.pick({ title: true, duration: true }).extend({
  description: z.string().trim().max(5000),
  videoUrl: z.string().nullable(),
});

type ModuleFormInput = z.input<typeof moduleFormSchema>;
type ModuleFormOutput = z.output<typeof moduleFormSchema>;

type ModuleDialogProps = {
  courseId: string;
  /** The module to edit; absent to add a new one at the end of the course. */
  module?: Module;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** Add Module and edit module share this dialog (SPEC section 2, course detail). */
export function ModuleDialog({ courseId, module, open, onOpenChange }: ModuleDialogProps) {
  const editing = module !== undefined;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{editing ? "Edit Module" : "Add Module"}</DialogTitle>
          <DialogDescription>
            {editing
              ? "Change the details, or upload a new video to replace the current one."
              : "Modules play in order. The new module goes to the end of the course."}
          </DialogDescription>
        </DialogHeader>
        <ModuleForm courseId={courseId} module={module} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ModuleForm({
  courseId,
  module,
  onDone,
}: {
  courseId: string;
  module?: Module;
  onDone: () => void;
}) {
  const addModule = useAddModule();
  const single = useSingleSubmit();
  const updateModule = useUpdateModule();
  const saving = addModule.isPending || updateModule.isPending;
  const [uploading, setUploading] = useState(false);
  // The video's real length, as the server read it from the file.
  const [videoSeconds, setVideoSeconds] = useState<number | null>(module?.videoSeconds ?? null);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    getFieldState,
    watch,
    formState: { errors },
  } = useForm<ModuleFormInput, unknown, ModuleFormOutput>({
    resolver: zodResolver(moduleFormSchema),
    defaultValues: {
      title: module?.title ?? "",
      description: module?.description ?? "",
      duration: module?.duration,
      videoUrl: module?.videoUrl ?? null,
    },
  });

  const statedMinutes = Number(watch("duration"));
  const mismatch = videoSeconds !== null && lengthMismatch(statedMinutes, videoSeconds);

  /** A new video: its length becomes the module's, unless the administrator typed one. */
  function onVideoUploaded(seconds: number | null) {
    setVideoSeconds(seconds);
    if (seconds !== null && !getFieldState("duration").isDirty) {
      setValue("duration", minutesOfVideo(seconds), { shouldValidate: true });
    }
  }

  const onSubmit = handleSubmit(async (values) => {
    if (!values.videoUrl) {
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.videoRequired,
        description: COURSE_TOASTS.videoRequiredDescription,
      });
      return;
    }
    const body = {
      id: module?.id ?? newModuleId(),
      title: values.title,
      description: values.description || null,
      duration: values.duration,
      videoUrl: values.videoUrl,
    };
    try {
      if (module) {
        await updateModule.mutateAsync({ courseId, module: body });
        toast({ title: COURSE_TOASTS.moduleUpdated });
      } else {
        const added = await single((idempotencyKey) =>
          addModule.mutateAsync({ courseId, module: body, idempotencyKey }),
        );
        if (!added) return;
        toast({ title: COURSE_TOASTS.moduleAdded });
      }
      onDone();
    } catch (error) {
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.moduleSaveFailed,
        description: getErrorMessage(error) ?? COURSE_TOASTS.createFailedDescription,
      });
    }
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={module ? "Edit module" : "Add module"}
      className="grid grid-cols-1 gap-5"
    >
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-[minmax(0,1fr)_9rem]">
        <Field id="module-title" label="Module title" error={errors.title?.message}>
          <Input
            id="module-title"
            placeholder="e.g. Writing your first query"
            autoComplete="off"
            required
            {...fieldAria("module-title", errors.title)}
            {...register("title")}
          />
        </Field>
        <Field id="module-duration" label="Duration (minutes)" error={errors.duration?.message}>
          <Input
            id="module-duration"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            placeholder="e.g. 12"
            required
            {...fieldAria("module-duration", errors.duration)}
            {...register("duration", { valueAsNumber: true })}
          />
        </Field>
      </div>
      <Field
        id="module-description"
        label={
          <>
            Description <span className="font-normal text-zinc-500">(optional)</span>
          </>
        }
        error={errors.description?.message}
      >
        <Textarea
          id="module-description"
          placeholder="What this module covers"
          rows={2}
          {...fieldAria("module-description", errors.description)}
          {...register("description")}
        />
      </Field>
      <div className="grid grid-cols-1 gap-2">
        <Label id="module-video-label">Video</Label>
        <Controller
          control={control}
          name="videoUrl"
          render={({ field }) => (
            <FileUploader
              kind="video"
              value={field.value ?? null}
              onChange={field.onChange}
              onUploaded={(file) => onVideoUploaded(file.durationSeconds)}
              onBusyChange={setUploading}
              labelledBy="module-video-label"
              currentLabel="Current video"
            />
          )}
        />
        {videoSeconds !== null ? (
          <VideoLength seconds={videoSeconds} statedMinutes={statedMinutes} mismatch={mismatch} />
        ) : null}
      </div>
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={saving || uploading}>
          {saving ? <Spinner /> : null}
          {uploading ? "Waiting for upload..." : module ? "Save Changes" : "Add Module"}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The video's real length, and a flag when the stated duration is more than 10 % off it. */
function VideoLength({
  seconds,
  statedMinutes,
  mismatch,
}: {
  seconds: number;
  statedMinutes: number;
  mismatch: boolean;
}) {
  if (!mismatch) {
    return (
      <p data-testid="video-length" className="text-xs text-zinc-600">
        Video length: {formatWatchSeconds(Math.round(seconds))}
      </p>
    );
  }
  return (
    <p
      data-testid="video-length"
      data-mismatch="true"
      className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs leading-relaxed text-amber-950"
    >
      <CircleAlertIcon className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span>
        {lengthMismatchText(statedMinutes, seconds)} Learners earn credit for the time a module
        states: make it match the video.
      </span>
    </p>
  );
}
