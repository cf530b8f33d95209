import {
  FileArchiveIcon,
  FileVideoIcon,
  ImageIcon,
  RefreshCwIcon,
  Trash2Icon,
  UploadCloudIcon,
} from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { Skeleton } from "../ui/skeleton";
import { formatBytes, UPLOAD_RULES, type UploadKind } from "./upload-rules";
import type { UploadedFile } from "./uppy-uploader";

// Uppy and its styles load only when an uploader is first shown, never with the sign-in page.
const UppyUploader = lazy(() =>
  import("./uppy-uploader").then((module) => ({ default: module.UppyUploader })),
);

export type FileUploaderProps = {
  kind: UploadKind;
  /** The stored object path, or null when nothing is uploaded yet. */
  value: string | null;
  onChange: (objectPath: string | null) => void;
  /** A new upload's details, such as a video's length as the server read it. */
  onUploaded?: (file: UploadedFile) => void;
  onBusyChange?: (busy: boolean) => void;
  /** The id of the visible label naming the uploader. */
  labelledBy?: string;
  /** A thumbnail may be removed; a module's video may only be replaced. */
  removable?: boolean;
  /** Text shown for an existing object whose file name is unknown (e.g. "Current video"). */
  currentLabel?: string;
  invalid?: boolean;
};

/**
 * Upload field for a thumbnail or a video: Uppy's dashboard while choosing and uploading,
 * then a compact summary of the stored file with Replace (and Remove for thumbnails).
 */
export function FileUploader({
  kind,
  value,
  onChange,
  onUploaded,
  onBusyChange,
  labelledBy,
  removable = false,
  currentLabel,
  invalid = false,
}: FileUploaderProps) {
  const [uploaded, setUploaded] = useState<UploadedFile | null>(null);
  const [replacing, setReplacing] = useState(false);

  if (value && !replacing) {
    const name = uploaded?.objectPath === value ? uploaded.name : (currentLabel ?? "Current file");
    const size = uploaded?.objectPath === value ? formatBytes(uploaded.size) : null;
    return (
      <fieldset
        aria-labelledby={labelledBy}
        className="m-0 flex min-w-0 items-center gap-3 rounded-xl border border-zinc-200 bg-zinc-50 p-2.5 pr-3"
        data-testid={`${kind}-uploaded`}
      >
        {kind === "video" || kind === "package" ? (
          <span className="flex h-14 w-20 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700">
            {kind === "video" ? (
              <FileVideoIcon className="size-6" aria-hidden="true" />
            ) : (
              <FileArchiveIcon className="size-6" aria-hidden="true" />
            )}
          </span>
        ) : (
          <img
            src={value}
            alt={`Uploaded ${kind} preview`}
            className={cn(
              "h-14 w-20 shrink-0 rounded-lg border border-zinc-200 bg-white",
              kind === "logo" ? "object-contain p-1" : "object-cover",
            )}
          />
        )}
        <div className="grid min-w-0 flex-1 gap-0.5">
          <p className="truncate text-sm font-medium text-zinc-900">{name}</p>
          <p className="text-xs text-emerald-700">
            {size ? `${size} · ` : ""}
            {kind === "video"
              ? "Video ready"
              : kind === "package"
                ? "Package ready"
                : "Image ready"}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setReplacing(true)}
            aria-label={`Replace ${kind}`}
          >
            <RefreshCwIcon aria-hidden="true" />
            <span className="hidden sm:inline">Replace</span>
          </Button>
          {removable ? (
            <Button
              variant="ghost"
              size="icon-sm"
              onClick={() => {
                setUploaded(null);
                onChange(null);
              }}
              aria-label={`Remove ${kind}`}
              className="text-zinc-500 hover:text-red-700"
            >
              <Trash2Icon aria-hidden="true" />
            </Button>
          ) : null}
        </div>
      </fieldset>
    );
  }

  return (
    <div
      className={cn(
        "grid grid-cols-1 gap-2",
        invalid && "[&_.uppy-Dashboard-AddFiles]:!border-red-400",
      )}
    >
      <Suspense fallback={<UploaderSkeleton kind={kind} />}>
        <UppyUploader
          kind={kind}
          labelledBy={labelledBy}
          onBusyChange={onBusyChange}
          onUploaded={(file) => {
            setUploaded(file);
            setReplacing(false);
            onChange(file.objectPath);
            onUploaded?.(file);
          }}
        />
      </Suspense>
      {replacing && value ? (
        <Button
          variant="link"
          size="sm"
          className="w-fit text-[13px]"
          onClick={() => setReplacing(false)}
        >
          Keep the current {kind}
        </Button>
      ) : null}
    </div>
  );
}

function UploaderSkeleton({ kind }: { kind: UploadKind }) {
  const Icon = kind === "video" || kind === "package" ? UploadCloudIcon : ImageIcon;
  return (
    <div className="flex h-[12.5rem] flex-col items-center justify-center gap-3 rounded-xl border-[1.5px] border-dashed border-zinc-300 bg-zinc-50">
      <Icon className="size-6 text-zinc-400" aria-hidden="true" />
      <Skeleton className="h-3 w-40" />
      <p className="text-xs text-zinc-500">{UPLOAD_RULES[kind].hint}</p>
    </div>
  );
}
