import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import "./uppy-theme.css";
import { PACKAGE_TYPES } from "@contract";
import AwsS3 from "@uppy/aws-s3";
import Uppy, { type Body, type Meta, type UppyFile } from "@uppy/core";
import Dashboard from "@uppy/react/dashboard";
import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { getErrorMessage, parseErrorBody } from "../../lib/api-client";
import { Progress } from "../ui/progress";
import { Spinner } from "../ui/spinner";
import { toast } from "../ui/use-toast";
import { requestUploadUrl } from "./request-upload-url";
import { setObjectAcl } from "./set-object-acl";
import { UPLOAD_RULES, UPLOAD_TOASTS, type UploadKind } from "./upload-rules";

const DASHBOARD_TITLES: Record<UploadKind, string> = {
  thumbnail: "Thumbnail upload",
  video: "Video upload",
  logo: "Logo upload",
  package: "Package upload",
};
const DROP_TEXTS: Record<UploadKind, string> = {
  thumbnail: "Drop an image here or %{browseFiles}",
  video: "Drop a video here or %{browseFiles}",
  logo: "Drop an image here or %{browseFiles}",
  package: "Drop a .zip here or %{browseFiles}",
};
/** The type a package is uploaded as, whatever the browser calls a zip. */
const PACKAGE_TYPE = PACKAGE_TYPES[0];

type Phase =
  | { type: "idle" }
  | { type: "uploading"; fileName: string; percent: number }
  | { type: "processing"; fileName: string }
  | { type: "failed" };

export type UploadedFile = {
  objectPath: string;
  name: string;
  size: number;
  /** A video's playing time as the server read it from the file; null when unknown. */
  durationSeconds: number | null;
};

export type UppyUploaderProps = {
  kind: UploadKind;
  /** Called with the object path once the upload is stored and checked (SPEC section 4). */
  onUploaded: (file: UploadedFile) => void;
  /** True while bytes travel or the server checks them. */
  onBusyChange?: (busy: boolean) => void;
  /** The id of the element that names this uploader. */
  labelledBy?: string;
};

type UploaderFile = UppyFile<Meta, Body>;

/**
 * Uppy's Dashboard with the S3 uploader in single-PUT mode against the portal's upload
 * flow: POST /api/objects/upload for a URL, PUT the bytes there, then PUT
 * /api/objects/set-acl for the object path. Only a successful result reaches `onUploaded`.
 */
export function UppyUploader({ kind, onUploaded, onBusyChange, labelledBy }: UppyUploaderProps) {
  const rules = UPLOAD_RULES[kind];
  const [uppy, setUppy] = useState<Uppy<Meta, Body> | null>(null);
  const [phase, setPhase] = useState<Phase>({ type: "idle" });
  const containerRef = useRef<HTMLDivElement>(null);

  // Latest callbacks, read by Uppy's long-lived handlers.
  const onUploadedRef = useRef(onUploaded);
  onUploadedRef.current = onUploaded;
  const onBusyChangeRef = useRef(onBusyChange);
  onBusyChangeRef.current = onBusyChange;

  const busy = phase.type === "uploading" || phase.type === "processing";
  useEffect(() => {
    onBusyChangeRef.current?.(busy);
  }, [busy]);
  useEffect(() => () => onBusyChangeRef.current?.(false), []);

  // Created in an effect (not during render) so React's strict double mount gets a fresh
  // instance after the first one is destroyed.
  useEffect(() => {
    const rule = UPLOAD_RULES[kind];
    /** The URL the server issued per Uppy file: set-acl must receive exactly that. */
    const issuedUrls = new Map<string, string>();
    /** Files whose failure already has its own toast. */
    const toasted = new Set<string>();

    const instance = new Uppy<Meta, Body>({
      id: `credo-${kind}`,
      autoProceed: true,
      restrictions: {
        maxNumberOfFiles: 1,
        maxFileSize: rule.maxBytes,
        allowedFileTypes: [...rule.types],
      },
    });

    instance.use(AwsS3<Meta, Body>, {
      shouldUseMultipart: false,
      // The key only routes signRequest back to the file; the server names the object.
      generateObjectKey: (file) => file.id,
      signRequest: async (request) => {
        if (request.method !== "PUT" || "uploadId" in request) {
          throw new Error("Only single-request uploads are supported");
        }
        const file = instance.getFile(request.key);
        const contentType = kind === "package" ? PACKAGE_TYPE : file.type;
        try {
          const { uploadURL } = await requestUploadUrl({
            kind,
            fileName: file.name ?? "upload",
            contentType,
            size: file.size ?? 0,
          });
          issuedUrls.set(file.id, uploadURL);
          return {
            // Uppy needs an absolute URL; the local store answers a same-origin path, and a
            // same-origin XHR carries the session cookie on its own.
            url: new URL(uploadURL, window.location.href).href,
            headers: { "content-type": contentType },
          };
        } catch (error) {
          toasted.add(file.id);
          toast({
            variant: "destructive",
            title: UPLOAD_TOASTS.failed,
            description: UPLOAD_TOASTS.noUploadUrl,
          });
          throw error;
        }
      },
    });

    const fail = (file: UploaderFile | undefined) => {
      setPhase({ type: "failed" });
      if (file) instance.removeFile(file.id);
    };

    instance.on("file-added", (file) => {
      setPhase({ type: "uploading", fileName: file.name ?? "file", percent: 0 });
    });
    instance.on("upload-progress", (file, progress) => {
      if (!file) return;
      const total = progress.bytesTotal ?? file.size ?? 0;
      const percent = total > 0 ? Math.round(((progress.bytesUploaded ?? 0) / total) * 100) : 0;
      setPhase({ type: "uploading", fileName: file.name ?? "file", percent });
    });
    instance.on("upload-error", (file, error) => {
      if (file && !toasted.has(file.id)) {
        toast({
          variant: "destructive",
          title: UPLOAD_TOASTS.failed,
          description: serverMessage(error) ?? error.message,
        });
      }
      fail(file);
    });
    instance.on("upload-success", async (file) => {
      if (!file) return;
      const issued = issuedUrls.get(file.id);
      setPhase({ type: "processing", fileName: file.name ?? "file" });
      try {
        if (!issued) throw new Error("No upload URL was issued for this file");
        const { objectPath, durationSeconds } = await setObjectAcl(issued);
        onUploadedRef.current({
          objectPath,
          name: file.name ?? "file",
          size: file.size ?? 0,
          durationSeconds: durationSeconds ?? null,
        });
        toast({ title: rule.success });
        setPhase({ type: "idle" });
        instance.clear();
      } catch (error) {
        toast({
          variant: "destructive",
          title: UPLOAD_TOASTS.failed,
          description: UPLOAD_TOASTS.notProcessed(kind),
        });
        console.warn("set-acl failed:", getErrorMessage(error) ?? error);
        fail(file);
      }
    });

    setUppy(instance);
    setPhase({ type: "idle" });
    return () => {
      instance.destroy();
    };
  }, [kind]);

  // Uppy's one-file layout renders the file as role="listitem" in a container without
  // role="list" (an accessibility error); give that container its role.
  useEffect(() => {
    const node = containerRef.current;
    if (!node || !uppy) return;
    const fix = () => {
      for (const list of node.querySelectorAll(".uppy-Dashboard-files:not([role])")) {
        list.setAttribute("role", "list");
      }
    };
    const observer = new MutationObserver(fix);
    observer.observe(node, { childList: true, subtree: true });
    fix();
    return () => observer.disconnect();
  }, [uppy]);

  return (
    <fieldset className="m-0 grid min-w-0 gap-3 border-0 p-0" aria-labelledby={labelledBy}>
      <div
        ref={containerRef}
        className="credo-uppy min-h-[12.5rem] overflow-hidden rounded-xl"
        data-testid={`${kind}-uploader`}
      >
        {uppy ? (
          <Dashboard
            uppy={uppy}
            height={200}
            width="100%"
            theme="light"
            proudlyDisplayPoweredByUppy={false}
            disableStatusBar
            hideUploadButton
            showSelectedFiles
            locale={{
              strings: {
                dropPasteFiles: DROP_TEXTS[kind],
                browseFiles: "browse",
                dashboardTitle: DASHBOARD_TITLES[kind],
              },
            }}
          />
        ) : null}
      </div>
      {phase.type === "idle" ? <p className="text-xs text-zinc-600">{rules.hint}</p> : null}
      <UploadStatus phase={phase} />
    </fieldset>
  );
}

function UploadStatus({ phase }: { phase: Phase }) {
  if (phase.type === "idle") return null;
  if (phase.type === "failed") {
    return (
      <p role="alert" className="text-xs font-medium text-red-700">
        The upload did not finish. Choose the file again to retry.
      </p>
    );
  }
  const percent = phase.type === "uploading" ? phase.percent : 100;
  return (
    <div className="grid grid-cols-1 gap-1.5" role="status" aria-live="polite">
      <div className="flex items-center justify-between gap-3 text-xs text-zinc-600">
        <span className="flex min-w-0 items-center gap-1.5">
          <Spinner className="size-3.5 text-indigo-600" />
          <span className="truncate">
            {phase.type === "uploading" ? "Uploading" : "Checking"}{" "}
            <span className="font-medium text-zinc-800">{phase.fileName}</span>
          </span>
        </span>
        <span className="shrink-0 font-medium tabular-nums text-zinc-800">
          {phase.type === "uploading" ? `${percent}%` : "Almost done"}
        </span>
      </div>
      <Progress value={percent} aria-label="Upload progress" className="h-1.5" />
    </div>
  );
}

/** The uploader's error for a refused PUT carries the answer's text as `body`. */
const refusedUploadSchema = z.object({ body: z.string() });

/** The `{message}` in the portal's JSON error body, when the PUT reached our server. */
function serverMessage(error: unknown): string | undefined {
  const refused = refusedUploadSchema.safeParse(error);
  return refused.success ? parseErrorBody(refused.data.body).message : undefined;
}
