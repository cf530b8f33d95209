import { type CourseWatch, formatWatchSeconds, type ModuleWatch, WATCH_MESSAGES } from "@contract";
import { CircleCheckIcon, EyeIcon } from "lucide-react";
import { FieldError } from "../../../components/ui/field";
import { Progress } from "../../../components/ui/progress";
import { cn } from "../../../lib/utils";

/**
 * In a verified course, how much of the module's video counts as watched and
 * what remains before 'Mark as Complete' unlocks. `hintId` labels the disabled button.
 */
export function WatchProgress({
  watch,
  module,
  hintId,
  error,
}: {
  watch: Pick<CourseWatch, "minWatchPercent" | "minSeatSeconds">;
  module: ModuleWatch | undefined;
  hintId: string;
  error: string | null;
}) {
  const percent = module?.watchedPercent ?? 0;
  const ready = Boolean(module?.canComplete);
  const remaining = module?.remainingSeconds ?? 0;
  const seatShort =
    watch.minSeatSeconds !== null && (module?.seatSeconds ?? 0) < watch.minSeatSeconds;
  return (
    <div className="grid gap-2 px-5 pt-4 sm:px-6" data-testid="watch-progress">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <span className="inline-flex items-center gap-1.5 font-medium text-zinc-800">
          {ready ? (
            <CircleCheckIcon className="size-4 text-emerald-600" aria-hidden="true" />
          ) : (
            <EyeIcon className="size-4 text-indigo-600" aria-hidden="true" />
          )}
          <span data-testid="watch-status">
            {percent}% watched
            {ready
              ? " · Ready to complete"
              : module?.durationSeconds
                ? ` · ${formatWatchSeconds(remaining)} remaining`
                : ""}
          </span>
        </span>
        <span className="text-xs text-zinc-600">{watch.minWatchPercent}% required</span>
      </div>
      <Progress
        value={percent}
        aria-label="Video watched"
        className={cn("h-1.5", ready && "[&>div]:bg-emerald-600")}
      />
      {ready ? null : (
        <p id={hintId} className="text-xs text-zinc-600">
          {percent < watch.minWatchPercent || !module?.durationSeconds
            ? WATCH_MESSAGES.notWatchedEnough(watch.minWatchPercent)
            : seatShort
              ? WATCH_MESSAGES.notSeatedEnough(watch.minSeatSeconds ?? 0)
              : WATCH_MESSAGES.watchedToComplete}{" "}
          Skipped parts and fast playback do not count.
        </p>
      )}
      <FieldError>{error}</FieldError>
    </div>
  );
}
