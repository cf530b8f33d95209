import type { Module } from "@contract";
import { PackageIcon, RefreshCwIcon } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { Skeleton } from "../../../components/ui/skeleton";
import { loadFailureHint } from "../../../lib/api-client";
import { usePackageLaunch } from "../api/package-run";
import { Cmi5Player } from "./cmi5-player";
import { ScormPlayer } from "./scorm-player";

type PackagePlayerProps = {
  courseId: string;
  module: Module;
  /** The module became complete: the course's progress is read again. */
  onModuleCompleted: () => void;
};

/**
 * A package module's content in the course player, in place of the video, by the module's
 * kind: `ScormPlayer` for SCORM 1.2 and 2004, `Cmi5Player` for a cmi5 course (the portal is
 * its LMS).
 */
export function PackagePlayer(props: PackagePlayerProps) {
  switch (props.module.kind) {
    case "scorm":
      return <ScormModule {...props} />;
    case "cmi5":
      return <Cmi5Player {...props} />;
    default:
      return (
        <div className="flex flex-col items-center gap-2 rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center text-sm text-zinc-600">
          <PackageIcon className="size-6 text-zinc-400" aria-hidden="true" />
          This module's content cannot be played here yet.
        </div>
      );
  }
}

/** A SCORM module: the learner's attempt is launched, then the SCORM player runs it. */
function ScormModule({ courseId, module, onModuleCompleted }: PackagePlayerProps) {
  const launch = usePackageLaunch(courseId, module.id);
  if (launch.isPending) {
    return <Skeleton className="h-[min(75vh,720px)] min-h-[26rem] w-full rounded-2xl" />;
  }
  const runtimeUrl = launch.data?.runtimeUrl;
  if (launch.isError || !runtimeUrl) {
    return (
      <div
        role="alert"
        className="flex flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50/60 px-6 py-12 text-center"
      >
        <p className="text-sm text-red-900">
          This module's content could not be opened.{" "}
          {loadFailureHint(launch.error, "Check your connection and try again.")}
        </p>
        <Button variant="outline" onClick={() => void launch.refetch()}>
          <RefreshCwIcon aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  return (
    <ScormPlayer
      courseId={courseId}
      module={module}
      launch={{ ...launch.data, runtimeUrl }}
      onModuleCompleted={onModuleCompleted}
    />
  );
}
