import { type Course, type Module, PACKAGE_STANDARD_LABELS } from "@contract";
import {
  ChevronDownIcon,
  ChevronUpIcon,
  ClockIcon,
  FilmIcon,
  PackageIcon,
  PencilIcon,
  PlayIcon,
  PlusIcon,
  Trash2Icon,
} from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader, CardTitle } from "../../../components/ui/card";
import { useConfirm } from "../../../components/ui/confirm-dialog";
import { SimpleTooltip } from "../../../components/ui/tooltip";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { plural } from "../../../lib/format";
import { cn } from "../../../lib/utils";
import { useDeleteModule } from "../api/delete-module";
import { formatMinutes } from "../course-figures";
import { COURSE_CONFIRMS, COURSE_TOASTS } from "../messages";
import { ModuleDialog } from "./module-dialog";
import { useModuleReorder } from "./use-module-reorder";
import { VideoPreviewDialog } from "./video-preview-dialog";

/** Other features' parts of the module list, plugged in by the route (e.g. captions). */
export type ModuleListExtras = {
  /** Under the list's heading: a notice about the modules. */
  renderNotice?: (course: Course) => ReactNode;
  /** Under a module's title: its badges. */
  renderModuleBadge?: (course: Course, module: Module) => ReactNode;
  /** Before a module's own actions. */
  renderModuleActions?: (course: Course, module: Module) => ReactNode;
};

/**
 * The course's modules in order, with preview, edit and delete; reordered by dragging a row
 * or with its Move up / Move down buttons.
 */
export function ModuleList({
  course,
  onAddModule,
  extras,
}: {
  course: Course;
  onAddModule: () => void;
  extras?: ModuleListExtras;
}) {
  const deleteModule = useDeleteModule();
  const [confirm, confirmDialog] = useConfirm();
  // The edited module stays set while the dialog animates closed.
  const [editing, setEditing] = useState<{ module: Module; open: boolean } | null>(null);
  const [previewing, setPreviewing] = useState<Module | null>(null);
  const totalMinutes = course.modules.reduce((sum, m) => sum + m.duration, 0);
  const reorder = useModuleReorder(course);

  async function remove(module: Module) {
    const confirmed = await confirm({
      title: "Delete module?",
      message: COURSE_CONFIRMS.deleteModule(module.title),
      confirmLabel: "Delete module",
    });
    if (!confirmed) return;
    try {
      await deleteModule.mutateAsync({ courseId: course.id, moduleId: module.id });
      toast({ title: COURSE_TOASTS.moduleDeleted });
    } catch (error) {
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.moduleDeleteFailed,
        description: getErrorMessage(error) ?? "The module could not be deleted.",
      });
    }
  }

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3 pb-4">
        <div className="grid grid-cols-1 gap-1">
          <CardTitle id="modules-title">Modules</CardTitle>
          <p className="text-sm text-zinc-600">
            {course.modules.length === 0
              ? "Learners watch modules in this order."
              : `${plural(course.modules.length, "module")} · ${formatMinutes(totalMinutes)}${
                  course.modules.every((m) => m.kind === "video") ? " of video" : ""
                }`}
          </p>
        </div>
      </CardHeader>
      <p role="status" aria-live="polite" className="sr-only">
        {reorder.announcement}
      </p>
      {extras?.renderNotice?.(course)}
      {course.modules.length === 0 ? (
        <div className="mx-5 mb-5 flex flex-col items-center rounded-xl border border-dashed border-zinc-300 px-6 py-10 text-center sm:mx-6 sm:mb-6">
          <span className="mb-3 flex size-11 items-center justify-center rounded-full bg-indigo-50 text-indigo-700">
            <FilmIcon className="size-5" aria-hidden="true" />
          </span>
          <p className="text-sm font-semibold text-zinc-900">No modules yet</p>
          <p className="mt-1 max-w-xs text-sm text-zinc-600">
            Add the first video module. A course needs at least one module before it can be
            published.
          </p>
          <Button className="mt-4" onClick={onAddModule}>
            <PlusIcon aria-hidden="true" />
            Add Module
          </Button>
        </div>
      ) : (
        <ol aria-labelledby="modules-title" className="grid border-t border-zinc-100">
          {course.modules.map((module, index) => (
            <li
              key={module.id}
              data-testid="module-item"
              {...reorder.rowDragProps(module.id, index)}
              className={cn(
                "flex items-start gap-3 border-b border-zinc-100 px-4 py-4 last:border-b-0 sm:gap-4 sm:px-6",
                reorder.dragging === module.id && "opacity-50",
                reorder.dropIndex === index &&
                  reorder.dragging !== module.id &&
                  "bg-indigo-50/70 outline-2 -outline-offset-2 outline-indigo-300 outline-dashed",
              )}
            >
              <div className="-my-1 flex shrink-0 cursor-grab flex-col items-center active:cursor-grabbing">
                <Button
                  ref={reorder.buttonRef(module.id, "up")}
                  variant="ghost"
                  size="icon-sm"
                  className="size-7 text-zinc-600"
                  aria-label={`Move ${module.title} up`}
                  disabled={index === 0}
                  onClick={() => reorder.moveBy(module.id, "up")}
                >
                  <ChevronUpIcon aria-hidden="true" />
                </Button>
                <span
                  aria-hidden="true"
                  className="flex size-8 items-center justify-center rounded-full bg-indigo-50 text-sm font-semibold text-indigo-700 tabular-nums"
                >
                  {index + 1}
                </span>
                <Button
                  ref={reorder.buttonRef(module.id, "down")}
                  variant="ghost"
                  size="icon-sm"
                  className="size-7 text-zinc-600"
                  aria-label={`Move ${module.title} down`}
                  disabled={index === course.modules.length - 1}
                  onClick={() => reorder.moveBy(module.id, "down")}
                >
                  <ChevronDownIcon aria-hidden="true" />
                </Button>
              </div>
              <div className="grid min-w-0 flex-1 gap-1">
                <h3 className="text-[15px] leading-snug font-medium text-zinc-950">
                  <span className="sr-only">Module {index + 1}: </span>
                  {module.title}
                </h3>
                {module.description ? (
                  <p className="line-clamp-2 text-sm text-zinc-600">{module.description}</p>
                ) : null}
                <p className="flex flex-wrap items-center gap-1.5 text-xs text-zinc-600">
                  <ClockIcon className="size-3.5 text-zinc-500" aria-hidden="true" />
                  {plural(module.duration, "minute")}
                  {module.package ? (
                    <span className="inline-flex items-center gap-1.5" data-testid="module-package">
                      <span aria-hidden="true">·</span>
                      <PackageIcon className="size-3.5 text-zinc-500" aria-hidden="true" />
                      {PACKAGE_STANDARD_LABELS[module.package.standard]} package,{" "}
                      {plural(module.package.items.length, "item")}
                    </span>
                  ) : null}
                </p>
                {extras?.renderModuleBadge?.(course, module)}
              </div>
              <div className="flex shrink-0 flex-wrap items-center justify-end gap-0.5">
                {extras?.renderModuleActions?.(course, module)}
                {module.kind === "video" ? (
                  <SimpleTooltip content="Preview video">
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      className="text-zinc-600"
                      aria-label={`Preview ${module.title}`}
                      onClick={() => setPreviewing(module)}
                    >
                      <PlayIcon aria-hidden="true" />
                    </Button>
                  </SimpleTooltip>
                ) : null}
                <SimpleTooltip content="Edit module">
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    className="text-zinc-600"
                    aria-label={`Edit ${module.title}`}
                    onClick={() => setEditing({ module, open: true })}
                  >
                    <PencilIcon aria-hidden="true" />
                  </Button>
                </SimpleTooltip>
                <SimpleTooltip content="Delete module">
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    className="text-zinc-600 hover:bg-red-50 hover:text-red-700"
                    aria-label={`Delete ${module.title}`}
                    disabled={
                      deleteModule.isPending && deleteModule.variables?.moduleId === module.id
                    }
                    onClick={() => void remove(module)}
                  >
                    <Trash2Icon aria-hidden="true" />
                  </Button>
                </SimpleTooltip>
              </div>
            </li>
          ))}
          <li className="px-3 py-2 sm:px-4">
            <Button
              variant="ghost"
              className="w-full justify-start text-indigo-700 hover:bg-indigo-50 hover:text-indigo-800"
              onClick={onAddModule}
            >
              <PlusIcon aria-hidden="true" />
              Add another module
            </Button>
          </li>
        </ol>
      )}
      <ModuleDialog
        courseId={course.id}
        module={editing?.module}
        open={editing?.open ?? false}
        onOpenChange={(open) => setEditing((current) => (current ? { ...current, open } : null))}
      />
      <VideoPreviewDialog module={previewing} onClose={() => setPreviewing(null)} />
      {confirmDialog}
    </Card>
  );
}
