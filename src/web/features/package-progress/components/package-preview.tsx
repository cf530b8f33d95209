import type { Course, Module, PackagePreview } from "@contract";
import { EyeIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { Label } from "../../../components/ui/label";
import { Skeleton } from "../../../components/ui/skeleton";
import { SimpleTooltip } from "../../../components/ui/tooltip";
import { getErrorMessage } from "../../../lib/api-client";
import { PACKAGE_FRAME_SANDBOX } from "../../../lib/package-frame";
import { usePackagePreview } from "../api/get-package-preview";

/**
 * A package module's preview for its administrator: the content as a learner's first launch
 * shows it, isolated as a learner's is (the content origin, the sandboxed frame), with
 * nothing recorded.
 */
export function PackagePreviewButton({ course, module }: { course: Course; module: Module }) {
  const [open, setOpen] = useState(false);
  if (module.kind === "video") return null;
  return (
    <>
      <SimpleTooltip content="Preview content">
        <Button
          variant="ghost"
          size="icon-sm"
          className="text-zinc-600"
          aria-label={`Preview ${module.title}`}
          onClick={() => setOpen(true)}
        >
          <EyeIcon aria-hidden="true" />
        </Button>
      </SimpleTooltip>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-5xl gap-4 p-4 sm:p-6">
          <DialogHeader>
            <DialogTitle>{module.title}</DialogTitle>
            <DialogDescription>Preview: nothing you do here is recorded.</DialogDescription>
          </DialogHeader>
          {open ? <PreviewBody courseId={course.id} module={module} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function PreviewBody({ courseId, module }: { courseId: string; module: Module }) {
  const preview = usePackagePreview(courseId, module.id);
  if (preview.isPending) return <Skeleton className="h-[min(65vh,640px)] w-full rounded-xl" />;
  if (preview.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {getErrorMessage(preview.error) ?? "The package could not be opened."}
      </p>
    );
  }
  return <PreviewFrame title={module.title} preview={preview.data} />;
}

/** The chosen item in its frame: a SCORM item through the launcher, a cmi5 AU as it is. */
function PreviewFrame({ title, preview }: { title: string; preview: PackagePreview }) {
  const items = preview.items.filter((i) => i.launchable);
  const [itemId, setItemId] = useState(items[0]?.id ?? "");
  const item = items.find((i) => i.id === itemId) ?? items[0];
  const frameRef = useRef<HTMLIFrameElement>(null);
  const contentOrigin = new URL(preview.contentBase).origin;
  const itemUrl = item ? new URL(item.launchPath, preview.contentBase).href : "";

  useEffect(() => {
    if (!preview.runtimeUrl || !item) return;
    // The launcher asks for its item once loaded; every commit it sends back is let go.
    function onMessage(event: MessageEvent) {
      if (event.origin !== contentOrigin || event.source !== frameRef.current?.contentWindow) {
        return;
      }
      if ((event.data as { type?: unknown } | null)?.type !== "scorm:ready") return;
      frameRef.current?.contentWindow?.postMessage(
        {
          type: "scorm:start",
          standard: preview.standard,
          itemId: item!.id,
          launchUrl: itemUrl,
          cmi: item!.cmi,
        },
        contentOrigin,
      );
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [preview, item, itemUrl, contentOrigin]);

  if (!item) return <p className="text-sm text-zinc-600">This package has nothing to launch.</p>;
  return (
    <div className="grid gap-3">
      {items.length > 1 ? (
        <div className="grid gap-1.5 sm:max-w-sm">
          <Label htmlFor="package-preview-item">Part</Label>
          <select
            id="package-preview-item"
            value={item.id}
            onChange={(event) => setItemId(event.target.value)}
            className="h-9 rounded-lg border border-zinc-300 bg-white px-3 text-sm"
          >
            {items.map((i) => (
              <option key={i.id} value={i.id}>
                {i.title}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <iframe
        key={item.id}
        ref={frameRef}
        src={preview.runtimeUrl ?? itemUrl}
        sandbox={PACKAGE_FRAME_SANDBOX}
        title={`${title}: preview of ${item.title}`}
        data-testid="package-preview-frame"
        className="block h-[min(65vh,640px)] min-h-[22rem] w-full rounded-xl border border-zinc-200 bg-white"
      />
      {preview.standard === "cmi5" ? (
        <p className="text-xs text-zinc-600">
          A cmi5 unit opens here without a learner's session: a unit that needs one to report may
          say so.
        </p>
      ) : null}
    </div>
  );
}
