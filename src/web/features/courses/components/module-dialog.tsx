import {
  formatWatchSeconds,
  lengthMismatch,
  lengthMismatchText,
  type Module,
  type ModuleEditBody,
  type ModuleKind,
  type ModuleRequestBody,
  minutesOfVideo,
  moduleBodySchema,
  moduleKindSchema,
  PACKAGE_STANDARD_LABELS,
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
import { NativeSelect } from "../../../components/ui/native-select";
import { Spinner } from "../../../components/ui/spinner";
import { Textarea } from "../../../components/ui/textarea";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { newModuleId, useAddModule } from "../api/add-module";
import { useUpdateModule } from "../api/update-module";
import { COURSE_TOASTS } from "../messages";

/**
 * SPEC section 5 "Module form", from the contract schema, with what the module plays: a
 * video, or a SCORM or cmi5 package. The upload is checked on submit.
 */
const moduleFormSchema = moduleBodySchema.pick({ title: true, duration: true }).extend({
  description: z.string().trim().max(5000),
  kind: moduleKindSchema,
  videoUrl: z.string().nullable(),
  packagePath: z.string().nullable(),
});

const CONTENT_CHOICES: { kind: ModuleKind; label: string }[] = [
  { kind: "video", label: "Video" },
  { kind: "scorm", label: "SCORM package (SCORM 1.2 or 2004)" },
  { kind: "cmi5", label: "cmi5 package" },
];
/**
 * Stands for the package an edited module already plays: its upload's path is not sent to
 * the browser, and an edit that keeps the package names none.
 */
const CURRENT_PACKAGE = "current-package";

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
              ? "Change the details, or upload new content to replace the current one."
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
      kind: module?.kind ?? "video",
      videoUrl: module?.videoUrl || null,
      packagePath: null,
    },
  });

  const kind = watch("kind");
  /** The package the edited module plays, kept unless another is uploaded. */
  const currentPackage = module?.kind === kind ? module.package : undefined;
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
    const fields = {
      id: module?.id ?? newModuleId(),
      title: values.title,
      description: values.description || null,
      duration: values.duration,
    };
    if (values.kind === "video" && !values.videoUrl) {
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.videoRequired,
        description: COURSE_TOASTS.videoRequiredDescription,
      });
      return;
    }
    if (values.kind !== "video" && !values.packagePath && !currentPackage) {
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.packageRequired,
        description: COURSE_TOASTS.packageRequiredDescription,
      });
      return;
    }
    try {
      if (module) {
        const edit: ModuleEditBody =
          values.kind === "video"
            ? { ...fields, videoUrl: values.videoUrl ?? "" }
            : values.packagePath
              ? { ...fields, kind: values.kind, packagePath: values.packagePath }
              : // An edit that keeps the current package names none.
                { ...fields, kind: values.kind };
        await updateModule.mutateAsync({ courseId, module: edit });
        toast({ title: COURSE_TOASTS.moduleUpdated });
      } else {
        const body: ModuleRequestBody =
          values.kind === "video"
            ? { ...fields, videoUrl: values.videoUrl ?? "" }
            : { ...fields, kind: values.kind, packagePath: values.packagePath ?? "" };
        const added = await single((idempotencyKey) =>
          addModule.mutateAsync({ courseId, module: body, idempotencyKey }),
        );
        if (!added) return;
        toast({ title: COURSE_TOASTS.moduleAdded });
      }
      onDone();
    } catch (error) {
      // A refused package's upload is gone with it: the next try needs another upload.
      if (
        isApiError(error) &&
        error.code?.startsWith("modules.package_") &&
        error.code !== "modules.package_kind_mismatch"
      ) {
        setValue("packagePath", null);
      }
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
      <Field
        id="module-kind"
        label="Content"
        hint={
          kind === "video"
            ? "A video the portal plays and measures."
            : "The course as its authoring tool exports it (Storyline, Rise, Captivate, iSpring...). It is checked when the module is saved."
        }
      >
        <NativeSelect
          id="module-kind"
          {...fieldAria("module-kind", undefined, { hint: true })}
          {...register("kind", {
            // An upload is for one kind of module: another kind needs its own.
            onChange: () => setValue("packagePath", null),
          })}
        >
          {CONTENT_CHOICES.map((choice) => (
            <option key={choice.kind} value={choice.kind}>
              {choice.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {kind === "video" ? (
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
      ) : (
        <div className="grid grid-cols-1 gap-2">
          <Label id="module-package-label">Package</Label>
          <Controller
            control={control}
            name="packagePath"
            render={({ field }) => (
              <FileUploader
                key={kind}
                kind="package"
                value={field.value ?? (currentPackage ? CURRENT_PACKAGE : null)}
                onChange={(path) => field.onChange(path === CURRENT_PACKAGE ? null : path)}
                onBusyChange={setUploading}
                labelledBy="module-package-label"
                currentLabel={
                  currentPackage
                    ? `${currentPackage.title} (${PACKAGE_STANDARD_LABELS[currentPackage.standard]})`
                    : undefined
                }
              />
            )}
          />
        </div>
      )}
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
