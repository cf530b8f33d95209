import type { Module } from "@contract";
import { useEffect, useState } from "react";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { plural } from "../../../lib/format";

/** Lets an administrator watch a module's video as learners will. */
export function VideoPreviewDialog({
  module,
  onClose,
}: {
  module: Module | null;
  onClose: () => void;
}) {
  // Keep the last module while the dialog animates closed.
  const [shown, setShown] = useState<Module | null>(module);
  useEffect(() => {
    if (module) setShown(module);
  }, [module]);

  return (
    <Dialog
      open={module !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent className="max-w-3xl gap-4 p-4 sm:p-6">
        <DialogHeader>
          <DialogTitle>{shown?.title ?? "Module preview"}</DialogTitle>
          <DialogDescription>
            {shown ? `${plural(shown.duration, "minute")} · Preview` : "Preview"}
          </DialogDescription>
        </DialogHeader>
        {shown ? (
          // biome-ignore lint/a11y/useMediaCaption: uploaded module videos have no caption track.
          <video
            key={shown.id}
            src={shown.videoUrl}
            controls
            preload="metadata"
            playsInline
            data-testid="module-video-preview"
            className="aspect-video w-full rounded-xl bg-zinc-950"
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
