import {
  CAPTION_MAX_BYTES,
  CAPTION_MESSAGES,
  CAPTIONS_PER_MODULE_MAX,
  type CaptionTrack,
  type Course,
  captionLabelSchema,
  captionLanguageSchema,
  type Module,
  TRANSCRIPT_MAX_CHARS,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { CaptionsIcon, CircleAlertIcon, Trash2Icon, UploadIcon } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../components/ui/button";
import { useConfirm } from "../../../components/ui/confirm-dialog";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../../components/ui/dialog";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Progress } from "../../../components/ui/progress";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { Textarea } from "../../../components/ui/textarea";
import { SimpleTooltip } from "../../../components/ui/tooltip";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../lib/api-client";
import { useDeleteCaption } from "../api/delete-caption";
import { useModuleMedia } from "../api/get-module-media";
import { useSaveTranscript } from "../api/save-transcript";
import { useUploadCaption } from "../api/upload-caption";
import { languageName } from "../language-name";

/** Languages offered as suggestions; any BCP 47 tag may be typed. */
const COMMON_LANGUAGES = ["en", "es", "fr", "de", "pt-BR", "it", "nl", "zh-Hans", "ja", "ar"];

const trackFormSchema = z.object({
  language: captionLanguageSchema,
  label: captionLabelSchema,
});
type TrackFormInput = z.input<typeof trackFormSchema>;
type TrackFormOutput = z.output<typeof trackFormSchema>;

/** The same checks the server makes before it reads the file, so a wrong pick fails at once. */
function fileProblem(file: File | null): string | null {
  if (!file) return "Choose a caption file.";
  if (file.type !== "text/vtt" && !/\.vtt$/i.test(file.name)) return CAPTION_MESSAGES.notVtt;
  if (file.size > CAPTION_MAX_BYTES) return CAPTION_MESSAGES.tooLarge;
  return null;
}

function ErrorNote({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      data-testid="captions-error"
      className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-900"
    >
      <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span className="break-words">{message}</span>
    </p>
  );
}

/**
 * A module's Captions button and dialog: WebVTT caption tracks, one per language, and the
 * transcript learners read under the video (WCAG 2.1 SC 1.2.2).
 */
export function CaptionsButton({ course, module }: { course: Course; module: Module }) {
  // Opened through a Radix trigger, so closing it returns the focus to the button.
  const [open, setOpen] = useState(false);
  // Captions belong to a video; a package carries its own.
  if (module.kind !== "video") return null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <SimpleTooltip content="Captions and transcript">
        <DialogTrigger asChild>
          <Button
            variant="ghost"
            size="icon-sm"
            className="text-zinc-600"
            aria-label={`Captions and transcript of ${module.title}`}
          >
            <CaptionsIcon aria-hidden="true" />
          </Button>
        </DialogTrigger>
      </SimpleTooltip>
      <DialogContent className="max-w-2xl" data-testid="captions-dialog">
        <DialogHeader>
          <DialogTitle>Captions and transcript</DialogTitle>
          <DialogDescription>
            {module.title}: learners turn captions on in the player and read the transcript under
            the video.
          </DialogDescription>
        </DialogHeader>
        {open ? <CaptionsEditor courseId={course.id} moduleId={module.id} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CaptionsEditor({ courseId, moduleId }: { courseId: string; moduleId: string }) {
  const media = useModuleMedia(courseId, moduleId);
  if (media.isPending) {
    return (
      <div className="grid gap-3" aria-hidden="true">
        <Skeleton className="h-16 rounded-xl" />
        <Skeleton className="h-40 rounded-xl" />
      </div>
    );
  }
  if (media.isError) {
    return (
      <div className="grid justify-items-start gap-3">
        <ErrorNote message={loadFailureHint(media.error, "The captions could not be loaded.")} />
        <Button variant="outline" onClick={() => void media.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="grid min-w-0 gap-6">
      <TrackList courseId={courseId} moduleId={moduleId} tracks={media.data.captions} />
      <TrackForm courseId={courseId} moduleId={moduleId} tracks={media.data.captions} />
      <TranscriptForm courseId={courseId} moduleId={moduleId} transcript={media.data.transcript} />
    </div>
  );
}

function TrackList({
  courseId,
  moduleId,
  tracks,
}: {
  courseId: string;
  moduleId: string;
  tracks: CaptionTrack[];
}) {
  const remove = useDeleteCaption();
  const [confirm, confirmDialog] = useConfirm();

  async function onDelete(track: CaptionTrack) {
    const confirmed = await confirm({
      title: "Delete captions?",
      message: `Delete the ${track.label} captions of this module?`,
      confirmLabel: "Delete captions",
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync({ courseId, moduleId, language: track.language });
      toast({ title: "Captions deleted", description: `${track.label} (${track.language})` });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Captions not deleted",
        description: getErrorMessage(error) ?? "The captions could not be deleted.",
      });
    }
  }

  return (
    <section aria-labelledby="caption-tracks-title" className="grid gap-2">
      <h3 id="caption-tracks-title" className="text-sm font-semibold text-zinc-900">
        Caption tracks
      </h3>
      {tracks.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 px-4 py-5 text-center text-sm text-zinc-600">
          No caption tracks yet. Add a WebVTT file below.
        </p>
      ) : (
        <ul className="grid divide-y divide-zinc-100 rounded-xl border border-zinc-200">
          {tracks.map((track) => (
            <li
              key={track.language}
              data-testid="caption-track"
              className="flex items-center gap-3 px-3.5 py-2.5"
            >
              <span className="rounded-md bg-indigo-50 px-2 py-0.5 font-mono text-xs font-semibold text-indigo-800">
                {track.language}
              </span>
              <span className="grid min-w-0 flex-1">
                <span className="truncate text-sm font-medium text-zinc-900">{track.label}</span>
                <span className="text-xs text-zinc-600">
                  {track.cues} {track.cues === 1 ? "cue" : "cues"}
                </span>
              </span>
              <Button
                variant="ghost"
                size="icon-sm"
                className="text-zinc-600 hover:bg-red-50 hover:text-red-700"
                aria-label={`Delete ${track.label} captions`}
                disabled={remove.isPending && remove.variables?.language === track.language}
                onClick={() => void onDelete(track)}
              >
                <Trash2Icon aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      {confirmDialog}
    </section>
  );
}

function TrackForm({
  courseId,
  moduleId,
  tracks,
}: {
  courseId: string;
  moduleId: string;
  tracks: CaptionTrack[];
}) {
  const upload = useUploadCaption();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const id = useId();
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    getValues,
    formState: { errors },
  } = useForm<TrackFormInput, unknown, TrackFormOutput>({
    resolver: zodResolver(trackFormSchema),
    defaultValues: { language: "", label: "" },
  });
  const full = tracks.length >= CAPTIONS_PER_MODULE_MAX;

  const onSubmit = handleSubmit(async ({ language, label }) => {
    setServerError(null);
    const problem = fileProblem(file);
    setFileError(problem);
    if (problem || !file) return;
    const replacing = tracks.some((t) => t.language === language);
    setProgress(0);
    try {
      await upload.mutateAsync({
        courseId,
        moduleId,
        language,
        label,
        file,
        onProgress: setProgress,
      });
      toast({
        title: replacing ? "Captions replaced" : "Captions added",
        description: `${label} (${language})`,
      });
      reset();
      labelTyped.current = false;
      setFile(null);
      if (fileInput.current) fileInput.current.value = "";
    } catch (error) {
      setServerError(getErrorMessage(error) ?? "The caption file could not be uploaded.");
    } finally {
      setProgress(null);
    }
  });

  // The label follows the language ("fr" -> "Français") until it is typed by hand.
  const labelTyped = useRef(false);
  const languageField = register("language", {
    onChange: () => {
      if (labelTyped.current) return;
      setValue("label", languageName(getValues("language")) ?? "", {
        shouldValidate: Boolean(errors.label),
      });
    },
  });
  const labelField = register("label", {
    onChange: () => {
      labelTyped.current = getValues("label") !== "";
    },
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
      className="grid min-w-0 gap-4 rounded-xl border border-zinc-200 bg-zinc-50/60 p-4"
    >
      <div className="grid gap-1">
        <h3 id={`${id}-title`} className="text-sm font-semibold text-zinc-900">
          Add or replace a track
        </h3>
        <p className="text-xs text-zinc-600">
          A WebVTT (.vtt) file of at most 1 MB. Uploading a language that already has a track
          replaces it.
          {full ? ` This module has ${CAPTIONS_PER_MODULE_MAX} tracks, the most it can have.` : ""}
        </p>
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field
          id={`${id}-language`}
          label="Language"
          hint='A language tag, e.g. "en", "fr" or "pt-BR".'
          error={errors.language?.message}
        >
          <Input
            id={`${id}-language`}
            list={`${id}-languages`}
            autoComplete="off"
            spellCheck={false}
            {...fieldAria(`${id}-language`, errors.language, { hint: true })}
            {...languageField}
          />
        </Field>
        <datalist id={`${id}-languages`}>
          {COMMON_LANGUAGES.map((tag) => (
            <option key={tag} value={tag}>
              {languageName(tag)}
            </option>
          ))}
        </datalist>
        <Field
          id={`${id}-label`}
          label="Label"
          hint="What learners see in the language choice."
          error={errors.label?.message}
        >
          <Input
            id={`${id}-label`}
            autoComplete="off"
            {...fieldAria(`${id}-label`, errors.label, { hint: true })}
            {...labelField}
          />
        </Field>
      </div>
      <Field id={`${id}-file`} label="Caption file" error={fileError ?? undefined}>
        <Input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          accept=".vtt,text/vtt"
          className="h-auto py-1.5 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1 file:text-sm file:font-medium file:text-indigo-800"
          {...fieldAria(`${id}-file`, fileError)}
          onChange={(event) => {
            const chosen = event.currentTarget.files?.[0] ?? null;
            setFile(chosen);
            setFileError(chosen ? fileProblem(chosen) : null);
          }}
        />
      </Field>
      {progress !== null ? (
        <div className="grid gap-1.5" data-testid="caption-upload-progress">
          <Progress value={progress} aria-label="Caption file upload" />
          <p className="text-xs text-zinc-600 tabular-nums">Uploading… {Math.round(progress)}%</p>
        </div>
      ) : null}
      <ErrorNote message={serverError} />
      <div className="flex justify-end">
        <Button type="submit" disabled={upload.isPending}>
          {upload.isPending ? <Spinner /> : <UploadIcon aria-hidden="true" />}
          Upload captions
        </Button>
      </div>
    </form>
  );
}

function TranscriptForm({
  courseId,
  moduleId,
  transcript,
}: {
  courseId: string;
  moduleId: string;
  transcript: string;
}) {
  const save = useSaveTranscript();
  const [text, setText] = useState(transcript);
  const [serverError, setServerError] = useState<string | null>(null);
  const id = useId();
  const tooLong = text.length > TRANSCRIPT_MAX_CHARS;
  const changed = text.trim() !== transcript;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (tooLong) return;
    setServerError(null);
    try {
      const saved = await save.mutateAsync({ courseId, moduleId, transcript: text });
      setText(saved.transcript);
      toast({ title: saved.transcript ? "Transcript saved" : "Transcript removed" });
    } catch (error) {
      setServerError(getErrorMessage(error) ?? "The transcript could not be saved.");
    }
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid min-w-0 gap-3">
      <Field
        id={`${id}-transcript`}
        label="Transcript"
        labelAside={
          <span
            id={`${id}-count`}
            className={tooLong ? "text-xs font-medium text-red-700" : "text-xs text-zinc-600"}
          >
            {text.length.toLocaleString("en-US")} / {TRANSCRIPT_MAX_CHARS.toLocaleString("en-US")}
          </span>
        }
        hint="Plain text, shown to learners under the video. Leave it empty for none."
        error={
          tooLong
            ? `Transcript must be at most ${TRANSCRIPT_MAX_CHARS.toLocaleString("en-US")} characters`
            : undefined
        }
      >
        <Textarea
          id={`${id}-transcript`}
          rows={6}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          {...fieldAria(`${id}-transcript`, tooLong, { hint: true })}
        />
      </Field>
      <ErrorNote message={serverError} />
      <div className="flex justify-end">
        <Button type="submit" variant="outline" disabled={save.isPending || tooLong || !changed}>
          {save.isPending ? <Spinner /> : null}
          Save transcript
        </Button>
      </div>
    </form>
  );
}
