import type { Module } from "@contract";
import { CheckIcon, ChevronDownIcon, LockIcon, PlayIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/utils";
import type { ModuleState } from "../enrollment-status";

const STATE_LABEL: Record<ModuleState, string> = {
  completed: "completed",
  available: "available",
  locked: "locked",
};

/**
 * The course's modules beside the player, in order, each with its state: completed,
 * available or locked. Collapsible on a phone, where it sits under the player.
 */
export function ModuleList({
  modules,
  states,
  currentId,
  completedCount,
  onSelect,
}: {
  modules: Module[];
  states: Map<string, ModuleState>;
  currentId: string;
  completedCount: number;
  onSelect: (moduleId: string) => void;
}) {
  const [open, setOpen] = useState(true);
  const listId = useId();
  return (
    <nav
      aria-label="Course modules"
      className="overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-xs shadow-zinc-950/5 lg:sticky lg:top-24"
    >
      <div className="flex items-center justify-between gap-3 border-b border-zinc-100 px-5 py-4">
        <div className="grid gap-0.5">
          <h2 className="text-base leading-tight font-semibold text-zinc-950">Course content</h2>
          <p className="text-xs text-zinc-600">
            {completedCount} of {modules.length} completed
          </p>
        </div>
        <Button
          variant="ghost"
          size="icon-sm"
          className="lg:hidden"
          aria-expanded={open}
          aria-controls={listId}
          aria-label={open ? "Hide modules" : "Show modules"}
          onClick={() => setOpen((value) => !value)}
        >
          <ChevronDownIcon
            className={cn("transition-transform", open && "rotate-180")}
            aria-hidden="true"
          />
        </Button>
      </div>
      <ol
        id={listId}
        className={cn(
          "grid gap-0.5 p-2 lg:max-h-[calc(100dvh-14rem)] lg:overflow-y-auto",
          !open && "hidden lg:grid",
        )}
      >
        {modules.map((module, i) => {
          const state = states.get(module.id) ?? "locked";
          const isCurrent = module.id === currentId;
          return (
            <li key={module.id} data-testid="module-item" data-state={state}>
              <button
                type="button"
                disabled={state === "locked"}
                aria-current={isCurrent ? "step" : undefined}
                onClick={() => onSelect(module.id)}
                className={cn(
                  "flex w-full items-start gap-3 rounded-xl px-3 py-2.5 text-left transition-colors",
                  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
                  isCurrent ? "bg-indigo-50 ring-1 ring-indigo-200" : "hover:bg-zinc-50",
                  "disabled:cursor-not-allowed disabled:hover:bg-transparent",
                )}
              >
                <ModuleStateIcon state={state} current={isCurrent} number={i + 1} />
                <span className="grid min-w-0 flex-1 gap-0.5">
                  <span
                    className={cn(
                      "line-clamp-2 text-sm leading-snug font-medium",
                      state === "locked" ? "text-zinc-500" : "text-zinc-900",
                      isCurrent && "text-indigo-900",
                    )}
                  >
                    <span className="sr-only">Module {i + 1}: </span>
                    {module.title}
                  </span>
                  <span className="text-xs text-zinc-600">
                    {module.duration} min
                    {state === "locked" ? " · Locked" : null}
                    <span className="sr-only">
                      {state === "locked" ? "" : `, ${STATE_LABEL[state]}`}
                      {isCurrent ? ", now playing" : ""}
                    </span>
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

function ModuleStateIcon({
  state,
  current,
  number,
}: {
  state: ModuleState;
  current: boolean;
  number: number;
}) {
  const base =
    "mt-px flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold";
  if (state === "completed") {
    return (
      <span
        data-icon="completed"
        className={cn(base, "bg-emerald-600 text-white")}
        aria-hidden="true"
      >
        <CheckIcon className="size-3.5" strokeWidth={3} />
      </span>
    );
  }
  if (state === "locked") {
    return (
      <span data-icon="locked" className={cn(base, "bg-zinc-100 text-zinc-500")} aria-hidden="true">
        <LockIcon className="size-3.5" />
      </span>
    );
  }
  return current ? (
    <span data-icon="current" className={cn(base, "bg-indigo-600 text-white")} aria-hidden="true">
      <PlayIcon className="ml-px size-3" fill="currentColor" />
    </span>
  ) : (
    <span
      data-icon="available"
      className={cn(base, "border border-zinc-300 bg-white text-zinc-700")}
      aria-hidden="true"
    >
      {number}
    </span>
  );
}
