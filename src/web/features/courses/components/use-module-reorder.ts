import type { Course } from "@contract";
import { type DragEvent, useLayoutEffect, useRef, useState } from "react";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useReorderModules } from "../api/reorder-modules";
import { COURSE_TOASTS } from "../messages";

type Direction = "up" | "down";

/**
 * Moving a course's modules by drag and drop and by the Move up / Move down buttons. The new
 * order shows at once and is rolled back if the server refuses it; the moved module's button
 * keeps focus and the new position is announced politely.
 */
export function useModuleReorder(course: Course) {
  const reorder = useReorderModules();
  const [announcement, setAnnouncement] = useState("");
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const pendingFocus = useRef<{ id: string; direction: Direction } | null>(null);

  // The moved row is re-inserted in the list, which drops the focus: give it back, to the
  // other button when this one is now disabled (the module reached an end).
  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending || course.modules.length === 0) return;
    pendingFocus.current = null;
    const other = pending.direction === "up" ? "down" : "up";
    const same = buttons.current.get(`${pending.id}:${pending.direction}`);
    const target = same && !same.disabled ? same : buttons.current.get(`${pending.id}:${other}`);
    target?.focus();
  }, [course.modules]);

  function move(moduleId: string, to: number) {
    const ids = course.modules.map((m) => m.id);
    const from = ids.indexOf(moduleId);
    if (from < 0 || to < 0 || to >= ids.length || from === to) return false;
    ids.splice(from, 1);
    ids.splice(to, 0, moduleId);
    const title = course.modules[from]?.title ?? "Module";
    setAnnouncement(`${title} moved to position ${to + 1} of ${ids.length}.`);
    reorder.mutateAsync({ courseId: course.id, moduleIds: ids }).catch((error: unknown) => {
      setAnnouncement(`${title} could not be moved. The previous order is back.`);
      toast({
        variant: "destructive",
        title: COURSE_TOASTS.reorderFailedTitle,
        description: getErrorMessage(error) ?? COURSE_TOASTS.reorderFailed,
      });
    });
    return true;
  }

  return {
    announcement,
    /** Moves a module one place up or down, keeping focus on its button. */
    moveBy(moduleId: string, direction: Direction) {
      const index = course.modules.findIndex((m) => m.id === moduleId);
      if (move(moduleId, direction === "up" ? index - 1 : index + 1)) {
        pendingFocus.current = { id: moduleId, direction };
      }
    },
    /** Registers a Move button so focus can return to it after the list re-renders. */
    buttonRef: (moduleId: string, direction: Direction) => (element: HTMLButtonElement | null) => {
      const key = `${moduleId}:${direction}`;
      if (element) buttons.current.set(key, element);
      else buttons.current.delete(key);
    },
    /** The index the dragged module would land on, to show where it goes. */
    dropIndex: dragging ? dropIndex : null,
    dragging,
    /** Native drag and drop on a module's row. */
    rowDragProps: (moduleId: string, index: number) => ({
      draggable: true,
      onDragStart: (event: DragEvent) => {
        event.dataTransfer.effectAllowed = "move";
        event.dataTransfer.setData("text/plain", moduleId);
        setDragging(moduleId);
      },
      onDragOver: (event: DragEvent) => {
        if (!dragging) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
        setDropIndex(index);
      },
      onDrop: (event: DragEvent) => {
        if (!dragging) return;
        event.preventDefault();
        move(dragging, index);
        setDragging(null);
        setDropIndex(null);
      },
      onDragEnd: () => {
        setDragging(null);
        setDropIndex(null);
      },
    }),
  };
}
