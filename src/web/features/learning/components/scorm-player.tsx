import type { Module, PackageAttemptStatus, PackageLaunch, ScormItemLaunch } from "@contract";
import { CheckIcon, CircleAlertIcon, CircleIcon, PlayIcon } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { z } from "zod";
import { getErrorMessage } from "../../../lib/api-client";
import { PACKAGE_FRAME_SANDBOX } from "../../../lib/package-frame";
import { cn } from "../../../lib/utils";
import { commitScormItem, getScormItem } from "../api/package-run";
import { useSeatBeats } from "./use-seat-beats";

/**
 * What the launcher page on the content origin may say (runtime/scorm-launcher.js). Anything
 * else, from anywhere else, is ignored.
 */
const launcherMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("scorm:ready") }),
  z.object({ type: z.literal("scorm:initialized"), itemId: z.string().min(1).max(255) }),
  z.object({
    type: z.literal("scorm:commit"),
    itemId: z.string().min(1).max(255),
    cmi: z.record(z.string(), z.unknown()),
    finish: z.boolean(),
  }),
  z.object({
    type: z.literal("scorm:navigate"),
    itemId: z.string().min(1).max(255),
    request: z.enum(["next", "previous"]),
  }),
]);

type Item = PackageLaunch["items"][number];
type ItemState = PackageAttemptStatus["items"][number];

const itemDone = (s: ItemState | undefined) =>
  s !== undefined &&
  (s.success === "passed" || (s.completion === "completed" && s.success !== "failed"));

/** The status line's words for the whole attempt. */
function statusText(status: PackageAttemptStatus): string {
  if (status.success === "failed") return "Not passed yet";
  if (status.satisfied) return status.success === "passed" ? "Passed" : "Completed";
  if (status.completion === "unknown" && status.success === "unknown") return "Not started";
  return "In progress";
}

const percent = (scaled: number) => `${Math.round(scaled * 100)}%`;
const minutes = (seconds: number) => Math.floor(seconds / 60);

/**
 * A SCORM module in the course player: the launcher page of the content origin in a
 * sandboxed frame, the package's own table of contents when it has several items, and where
 * the learner stands. It makes the API calls the content asks for (commits) as the learner,
 * from messages of its own frame only, and reports seat time while the content is open.
 */
export function ScormPlayer({
  courseId,
  module,
  launch,
  onModuleCompleted,
}: {
  courseId: string;
  module: Module;
  launch: PackageLaunch & { runtimeUrl: string };
  /** Called once when a commit or a beat completes the module. */
  onModuleCompleted: () => void;
}) {
  const contentOrigin = new URL(launch.runtimeUrl).origin;
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [status, setStatus] = useState(launch.status);
  const [itemId, setItemId] = useState(launch.resume.itemId);
  const [error, setError] = useState<string | null>(null);
  const [loads, setLoads] = useState(0);
  // The item whose SCO has started talking to its run time (its page loaded).
  const [running, setRunning] = useState<string | null>(null);
  // The item the launcher starts when it says it is ready.
  const pending = useRef<ScormItemLaunch | null>(launch.item);
  const commits = useRef<Promise<unknown>>(Promise.resolve());
  const completed = useRef(launch.status.moduleCompleted);
  const items = useMemo(() => launch.items.filter((i) => i.launchable), [launch]);
  const moduleId = module.id;

  const took = useCallback(
    (next: PackageAttemptStatus) => {
      setStatus(next);
      if (next.moduleCompleted && !completed.current) {
        completed.current = true;
        onModuleCompleted();
      }
    },
    [onModuleCompleted],
  );

  useSeatBeats(courseId, moduleId, true, took, launch.attemptId);

  const open = useCallback(
    async (next: string) => {
      setItemId(next);
      setRunning(null);
      setError(null);
      try {
        const { status: now, ...item } = await getScormItem(courseId, moduleId, next);
        pending.current = item;
        setLoads((n) => n + 1);
        took(now);
      } catch (err) {
        setError(getErrorMessage(err) ?? "This part of the module could not be opened.");
      }
    },
    [courseId, moduleId, took],
  );

  useEffect(() => {
    function onMessage(event: MessageEvent) {
      // Only the launcher in this player's own frame, on the content origin, is heard.
      if (event.origin !== contentOrigin || event.source !== frameRef.current?.contentWindow) {
        return;
      }
      const parsed = launcherMessageSchema.safeParse(event.data);
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === "scorm:ready") {
        const item = pending.current;
        if (!item) return;
        frameRef.current?.contentWindow?.postMessage(
          {
            type: "scorm:start",
            standard: launch.standard,
            itemId: item.itemId,
            launchUrl: new URL(item.launchPath, launch.contentBase).href,
            cmi: item.cmi,
          },
          contentOrigin,
        );
      } else if (message.type === "scorm:initialized") {
        setRunning(message.itemId);
      } else if (message.type === "scorm:commit") {
        if (!launch.items.some((i) => i.id === message.itemId)) return;
        // In order, one at a time: a later commit must not be overtaken by an earlier one.
        commits.current = commits.current.then(() =>
          commitScormItem(
            courseId,
            moduleId,
            message.itemId,
            { cmi: message.cmi, finish: message.finish, attemptId: launch.attemptId },
            { keepalive: message.finish },
          ).then(
            (next) => {
              setError(null);
              took(next);
            },
            (err) =>
              setError(getErrorMessage(err) ?? "Your progress in this module was not saved."),
          ),
        );
      } else if (message.type === "scorm:navigate") {
        const at = items.findIndex((i) => i.id === message.itemId);
        const next = items[message.request === "next" ? at + 1 : at - 1];
        if (at >= 0 && next) void open(next.id);
      }
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [contentOrigin, courseId, moduleId, launch, items, open, took]);

  const src = `${launch.runtimeUrl}?load=${loads}`;
  const states = new Map(status.items.map((s) => [s.id, s]));
  const current = items.find((i) => i.id === itemId);

  return (
    <div className="grid gap-3">
      <div className="overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-xs shadow-zinc-950/5">
        <iframe
          ref={frameRef}
          src={src}
          sandbox={PACKAGE_FRAME_SANDBOX}
          title={`${module.title}: course content`}
          className="block h-[min(75vh,720px)] min-h-[26rem] w-full border-0 bg-white"
          data-testid="package-frame"
          data-running-item={running ?? ""}
        />
      </div>
      <PackageStatus
        status={status}
        error={error}
        current={items.length > 1 ? current : undefined}
      />
      {items.length > 1 ? (
        <PackageContents
          items={items}
          states={states}
          currentId={itemId}
          onSelect={(id) => void open(id)}
        />
      ) : null}
    </div>
  );
}

function PackageStatus({
  status,
  error,
  current,
}: {
  status: PackageAttemptStatus;
  error: string | null;
  current: Item | undefined;
}) {
  return (
    <div className="grid gap-1">
      <p
        role="status"
        data-testid="package-status"
        className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-700"
      >
        <span className="font-medium text-zinc-950">{statusText(status)}</span>
        {status.scoreScaled !== null ? <span>Score {percent(status.scoreScaled)}</span> : null}
        {status.minSeatSeconds > 0 ? (
          <span>
            Time with the content: {minutes(Math.min(status.seatSeconds, status.minSeatSeconds))} of{" "}
            {minutes(status.minSeatSeconds)} min
          </span>
        ) : null}
        {current ? <span className="text-zinc-600">Now: {current.title}</span> : null}
      </p>
      {error ? (
        <p role="alert" className="flex items-center gap-1.5 text-sm text-red-700">
          <CircleAlertIcon className="size-4 shrink-0" aria-hidden="true" />
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The package's own table of contents: its items in order, the one playing marked. */
function PackageContents({
  items,
  states,
  currentId,
  onSelect,
}: {
  items: Item[];
  states: Map<string, ItemState>;
  currentId: string;
  onSelect: (itemId: string) => void;
}) {
  return (
    <nav
      aria-label="Module contents"
      className="rounded-2xl border border-zinc-200 bg-white p-2 shadow-xs shadow-zinc-950/5"
    >
      <ol className="grid gap-0.5 sm:grid-cols-2">
        {items.map((item) => {
          const isCurrent = item.id === currentId;
          const done = itemDone(states.get(item.id));
          return (
            <li key={item.id}>
              <button
                type="button"
                aria-current={isCurrent ? "step" : undefined}
                onClick={() => onSelect(item.id)}
                data-testid="package-item"
                data-item-id={item.id}
                className={cn(
                  "flex w-full items-center gap-2.5 rounded-xl px-3 py-2 text-left text-sm transition-colors",
                  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
                  isCurrent
                    ? "bg-indigo-50 text-indigo-900 ring-1 ring-indigo-200"
                    : "hover:bg-zinc-50",
                )}
              >
                {done ? (
                  <CheckIcon className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                ) : isCurrent ? (
                  <PlayIcon className="size-4 shrink-0 text-indigo-600" aria-hidden="true" />
                ) : (
                  <CircleIcon className="size-4 shrink-0 text-zinc-400" aria-hidden="true" />
                )}
                <span className="min-w-0 flex-1 truncate">{item.title}</span>
                <span className="sr-only">{done ? ", completed" : ""}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
