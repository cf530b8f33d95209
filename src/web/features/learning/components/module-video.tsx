import type { Module } from "@contract";
import { RefreshCwIcon, TriangleAlertIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "../../../components/ui/button";

/**
 * The module's video (SPEC section 2): download, picture-in-picture and the context menu
 * are disabled, and the address carries a cache-busting query of a timestamp and the
 * module id (the server ignores the query). Remount it (a new `key`) for a new address.
 */
export function ModuleVideo({
  module,
  startAt = 0,
  onElement,
  tracks,
}: {
  module: Module;
  /** The learner's last position, where the video opens. */
  startAt?: number;
  /** The video element, for watch tracking. */
  onElement?: (video: HTMLVideoElement | null) => void;
  /** <track> elements inside the video (its captions). */
  tracks?: ReactNode;
}) {
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);

  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-2xl bg-zinc-950 shadow-lg shadow-zinc-950/10 ring-1 ring-zinc-950/10">
      {failed ? (
        <div
          role="alert"
          className="absolute inset-0 flex flex-col items-center justify-center gap-3 px-6 text-center text-white"
        >
          <TriangleAlertIcon className="size-7 text-amber-300" aria-hidden="true" />
          <p className="text-sm font-medium sm:text-base">This video could not be loaded.</p>
          <p className="max-w-sm text-xs text-zinc-300 sm:text-sm">
            Check your connection and try again.
          </p>
          <Button
            variant="outline"
            size="sm"
            className="mt-1 border-white/30 bg-white/10 text-white hover:border-white/50 hover:bg-white/20 focus-visible:ring-offset-zinc-950"
            onClick={() => {
              setFailed(false);
              setAttempt((n) => n + 1);
            }}
          >
            <RefreshCwIcon aria-hidden="true" />
            Try again
          </Button>
        </div>
      ) : (
        <VideoElement
          key={`${module.id}:${attempt}`}
          module={module}
          startAt={startAt}
          onElement={onElement}
          onFailed={() => setFailed(true)}
          tracks={tracks}
        />
      )}
    </div>
  );
}

function VideoElement({
  module,
  startAt,
  onElement,
  onFailed,
  tracks,
}: {
  module: Module;
  startAt: number;
  onElement: ((video: HTMLVideoElement | null) => void) | undefined;
  onFailed: () => void;
  tracks: ReactNode;
}) {
  // Computed once per mount, so re-renders never reload the video.
  const [src] = useState(
    () => `${module.videoUrl}?t=${Date.now()}&module=${encodeURIComponent(module.id)}`,
  );
  return (
    // biome-ignore lint/a11y/useMediaCaption: the caption <track>s come from the captions feature, through `tracks`.
    <video
      src={src}
      controls
      controlsList="nodownload"
      disablePictureInPicture
      onContextMenu={(event) => event.preventDefault()}
      onError={onFailed}
      ref={onElement}
      onLoadedMetadata={(event) => {
        // Resume where the learner left off, unless that was (almost) the end.
        const video = event.currentTarget;
        if (startAt > 1 && startAt < video.duration - 1) video.currentTime = startAt;
      }}
      playsInline
      preload="metadata"
      aria-label={`Video: ${module.title}`}
      data-testid="module-video"
      className="absolute inset-0 size-full bg-zinc-950 object-contain"
    >
      {tracks}
    </video>
  );
}
