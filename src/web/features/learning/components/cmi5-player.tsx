import type { Cmi5Status, Module, PackageAttemptStatus } from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { CircleCheckIcon, ExternalLinkIcon, PlayIcon, RotateCcwIcon, XIcon } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { PACKAGE_FRAME_SANDBOX } from "../../../lib/package-frame";
import { cmi5StatusQueryKey, useCmi5Status } from "../api/get-cmi5-status";
import { useLaunchCmi5Au } from "../api/launch-cmi5-au";
import { useSeatBeats } from "./use-seat-beats";

type Au = Cmi5Status["aus"][number];

function standing(au: Au): {
  label: string;
  variant: "success" | "warning" | "secondary" | "default";
} {
  if (au.waived) return { label: "Waived", variant: "success" };
  if (au.satisfied && au.moveOn !== "NotApplicable") return { label: "Done", variant: "success" };
  if (au.failed && !au.passed) return { label: "Not passed yet", variant: "warning" };
  if (au.completed || au.passed || au.launched) return { label: "In progress", variant: "default" };
  if (au.moveOn === "NotApplicable") return { label: "Optional", variant: "secondary" };
  return { label: "Not started", variant: "secondary" };
}

const minutes = (seconds: number) => Math.floor(seconds / 60);

/**
 * A cmi5 module in the course player: the course's units (AUs) in order, each launched in
 * a sandboxed frame on the content origin (or a window of its own when the AU asks for
 * one). The AU reports to the portal itself; the player follows its standing, reports seat
 * time while a unit is open, and says when the module is complete.
 */
export function Cmi5Player({
  courseId,
  module,
  onModuleCompleted,
}: {
  courseId: string;
  module: Module;
  /** Called once when the module becomes complete (its units, or a seat beat after them). */
  onModuleCompleted: () => void;
}) {
  const moduleId = module.id;
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<{ au: Au; url: string } | null>(null);
  const [windowed, setWindowed] = useState<Au | null>(null);
  const [seat, setSeat] = useState<PackageAttemptStatus | null>(null);
  const running = open !== null || windowed !== null;
  const status = useCmi5Status(courseId, moduleId, { live: running });
  const launch = useLaunchCmi5Au();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const completed = useRef<boolean | undefined>(undefined);
  const listId = useId();

  const completedNow = useCallback(
    (done: boolean) => {
      if (completed.current === false && done) onModuleCompleted();
      completed.current = done || completed.current === true;
    },
    [onModuleCompleted],
  );

  // What the unit reported last shows once it is closed, by the learner or by the AU.
  const closeUnit = useCallback(() => {
    setOpen(null);
    void queryClient.invalidateQueries({ queryKey: cmi5StatusQueryKey(courseId, moduleId) });
  }, [queryClient, courseId, moduleId]);

  // The AU went back to its returnURL: the unit is closed.
  useEffect(() => {
    if (!open) return;
    const origin = new URL(open.url).origin;
    function onMessage(event: MessageEvent) {
      if (event.origin !== origin || event.source !== frameRef.current?.contentWindow) return;
      if ((event.data as { type?: unknown } | null)?.type !== "cmi5:returned") return;
      closeUnit();
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [open, closeUnit]);

  // The module just became complete, as the units' reports or a seat beat made it.
  const moduleCompleted = status.data?.moduleCompleted;
  useEffect(() => {
    if (moduleCompleted !== undefined) completedNow(moduleCompleted);
  }, [moduleCompleted, completedNow]);

  // Seat time while a unit is open.
  const tookSeat = useCallback(
    (next: PackageAttemptStatus) => {
      setSeat(next);
      completedNow(next.moduleCompleted);
    },
    [completedNow],
  );
  useSeatBeats(courseId, moduleId, running, tookSeat);

  async function start(au: Au) {
    try {
      const launched = await launch.mutateAsync({ courseId, moduleId, auId: au.id });
      void queryClient.invalidateQueries({ queryKey: cmi5StatusQueryKey(courseId, moduleId) });
      if (launched.launchMethod === "OwnWindow") {
        // No opener: the content gets no handle on the portal's window.
        window.open(launched.url, "_blank", "noopener");
        setOpen(null);
        setWindowed(au);
      } else {
        setWindowed(null);
        setOpen({ au, url: launched.url });
      }
    } catch (error) {
      toast({
        variant: "destructive",
        title: "The unit could not be opened",
        description: getErrorMessage(error) ?? "Please try again.",
      });
    }
  }

  if (status.isPending) return <Skeleton className="aspect-video w-full rounded-2xl" />;
  if (status.isError || !status.data) {
    return (
      <div
        role="alert"
        className="rounded-2xl border border-red-200 bg-red-50 p-5 text-sm text-red-800"
      >
        This module's units could not be loaded.{" "}
        <Button variant="outline" size="sm" onClick={() => void status.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { aus } = status.data;
  const done = aus.filter((au) => au.satisfied).length;

  return (
    <section
      aria-label="Module units"
      className="grid min-w-0 grid-cols-1 gap-4"
      data-testid="cmi5-player"
    >
      {open ? (
        <div className="grid min-w-0 grid-cols-1 gap-2">
          <div className="flex min-w-0 items-center justify-between gap-3">
            <p className="min-w-0 truncate text-sm font-medium text-zinc-800">
              <span className="text-zinc-500">
                Unit {aus.findIndex((au) => au.id === open.au.id) + 1} of {aus.length}:{" "}
              </span>
              {open.au.title}
            </p>
            <Button variant="outline" size="sm" className="shrink-0" onClick={closeUnit}>
              <XIcon aria-hidden="true" />
              Close unit
            </Button>
          </div>
          <iframe
            ref={frameRef}
            key={open.url}
            src={open.url}
            title={open.au.title}
            sandbox={PACKAGE_FRAME_SANDBOX}
            allow="fullscreen; autoplay"
            className="h-[75vh] min-h-[28rem] w-full rounded-2xl border-0 bg-white shadow-lg shadow-zinc-950/10 ring-1 ring-zinc-950/10 sm:h-auto sm:min-h-0 sm:aspect-video"
            data-testid="cmi5-frame"
          />
        </div>
      ) : (
        <div className="rounded-2xl bg-gradient-to-br from-indigo-50 to-white p-5 ring-1 ring-indigo-100 sm:p-6">
          <p className="text-sm font-medium text-indigo-900">
            {status.data.satisfied
              ? "You have completed this module's units."
              : "Open each unit below. This module is complete when its units say you are done."}
          </p>
          {seat && seat.minSeatSeconds > 0 && !status.data.moduleCompleted ? (
            <p className="mt-2 text-sm text-zinc-700" data-testid="cmi5-seat">
              Time with the content: {minutes(Math.min(seat.seatSeconds, seat.minSeatSeconds))} of{" "}
              {minutes(seat.minSeatSeconds)} min
            </p>
          ) : null}
          {windowed ? (
            <p className="mt-2 flex items-center gap-2 text-sm text-zinc-700">
              <ExternalLinkIcon className="size-4" aria-hidden="true" />"{windowed.title}" opened in
              a new window. Your progress shows here as you go.
            </p>
          ) : null}
        </div>
      )}

      <div className="grid min-w-0 grid-cols-1 gap-2">
        <div className="flex items-baseline justify-between gap-2">
          <h3 id={listId} className="text-sm font-semibold text-zinc-900">
            Units
          </h3>
          <p className="text-xs text-zinc-600" data-testid="cmi5-done">
            {done} of {aus.length} done
          </p>
        </div>
        <ol aria-labelledby={listId} className="grid gap-2">
          {aus.map((au, i) => {
            const { label, variant } = standing(au);
            const isOpen = open?.au.id === au.id;
            return (
              <li
                key={au.id}
                data-testid="cmi5-unit"
                className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border border-zinc-200 bg-white px-4 py-3"
              >
                <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-zinc-100 text-xs font-semibold text-zinc-700">
                  {au.satisfied ? (
                    <CircleCheckIcon className="size-4 text-emerald-600" aria-label="Done" />
                  ) : (
                    i + 1
                  )}
                </span>
                <span className="min-w-0 flex-1 text-sm font-medium text-zinc-900">{au.title}</span>
                <Badge variant={variant} data-testid="cmi5-unit-status">
                  {label}
                </Badge>
                <Button
                  size="sm"
                  variant={au.satisfied ? "outline" : "default"}
                  disabled={launch.isPending || isOpen}
                  onClick={() => void start(au)}
                >
                  {launch.isPending && launch.variables?.auId === au.id ? (
                    <Spinner />
                  ) : au.satisfied ? (
                    <RotateCcwIcon aria-hidden="true" />
                  ) : (
                    <PlayIcon aria-hidden="true" />
                  )}
                  {au.satisfied ? "Open again" : "Start"}
                  <span className="sr-only"> {au.title}</span>
                </Button>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}
