import type { Module } from "@contract";
import { CheckIcon, ChevronLeftIcon, ChevronRightIcon, LockIcon } from "lucide-react";
import type { ReactNode, Ref } from "react";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import type { ModuleState } from "../enrollment-status";

/**
 * The module being played, under its video or content: where it sits in the course, its
 * title and description, what it still asks for, 'Mark as Complete' (or why its content
 * completes it), and Previous and Next, with why Next is locked.
 */
export function ModulePanel({
  module,
  index,
  count,
  state,
  watch,
  extra,
  renderMarkComplete,
  previous,
  next,
  nextLocked,
  lockHint,
  nextRef,
  titleRef,
  onSelect,
}: {
  module: Module;
  index: number;
  count: number;
  state: ModuleState | undefined;
  /** How much of the video is watched, when the course verifies watching. */
  watch?: ReactNode;
  /** Under the description (the player's `renderModuleExtra`). */
  extra?: ReactNode;
  /** A video module's 'Mark as Complete', drawn only while the module is available. */
  renderMarkComplete: () => ReactNode;
  previous?: Module;
  next?: Module;
  nextLocked: boolean;
  /** Says why Next is locked. */
  lockHint: boolean;
  nextRef: Ref<HTMLButtonElement>;
  /** The module's title, where the keyboard lands when the control it used goes away. */
  titleRef: Ref<HTMLHeadingElement>;
  onSelect: (moduleId: string) => void;
}) {
  return (
    <section
      aria-labelledby="module-title"
      className="rounded-2xl border border-zinc-200 bg-white shadow-xs shadow-zinc-950/5"
    >
      <div className="grid gap-2 px-5 pt-5 sm:px-6 sm:pt-6">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs font-medium text-zinc-600">
          <span className="font-semibold tracking-wide text-indigo-700 uppercase">
            Module {index + 1} of {count}
          </span>
          <span aria-hidden="true">·</span>
          <span>{module.duration} min</span>
          {state === "completed" ? (
            <Badge variant="success" className="ml-1">
              <CheckIcon aria-hidden="true" />
              Completed
            </Badge>
          ) : null}
        </p>
        <h2
          ref={titleRef}
          id="module-title"
          tabIndex={-1}
          className="text-lg leading-snug font-semibold text-zinc-950 outline-none sm:text-xl"
        >
          {module.title}
        </h2>
        {module.description ? (
          <p className="text-sm leading-relaxed whitespace-pre-line text-zinc-600 sm:text-[15px]">
            {module.description}
          </p>
        ) : null}
      </div>
      {watch}
      {extra ? (
        <div key={module.id} className="px-5 pt-5 empty:hidden sm:px-6">
          {extra}
        </div>
      ) : null}
      <div className="mt-5 grid grid-cols-2 gap-3 border-t border-zinc-100 px-5 py-4 sm:flex sm:items-center sm:px-6">
        <Button
          variant="outline"
          disabled={!previous}
          onClick={() => previous && onSelect(previous.id)}
          className="sm:order-1"
        >
          <ChevronLeftIcon aria-hidden="true" />
          Previous
        </Button>
        <div className="order-first col-span-2 sm:order-2 sm:col-span-1 sm:mx-auto">
          {state !== "available" ? null : module.kind !== "video" ? (
            <p className="text-center text-sm text-zinc-600">
              This module completes when you finish its content.
            </p>
          ) : (
            renderMarkComplete()
          )}
        </div>
        <Button
          ref={nextRef}
          variant={state === "completed" && !nextLocked ? "default" : "outline"}
          disabled={nextLocked}
          onClick={() => next && onSelect(next.id)}
          className="sm:order-3"
        >
          Next
          <ChevronRightIcon aria-hidden="true" />
        </Button>
      </div>
      {lockHint ? (
        <p className="-mt-1 flex items-center gap-2 px-5 pb-4 text-xs text-zinc-600 sm:px-6">
          <LockIcon className="size-3.5 shrink-0" aria-hidden="true" />
          {module.kind === "video"
            ? "Mark this module as complete to unlock the next one."
            : "Finish this module's content to unlock the next one."}
        </p>
      ) : null}
    </section>
  );
}
