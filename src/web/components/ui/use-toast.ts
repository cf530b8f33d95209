import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from "@contract";
import type { ReactElement, ReactNode } from "react";
import { useSyncExternalStore } from "react";

/**
 * The toast store of SPEC sections 4 and 9: at most TOAST_LIMIT (1) toast is visible, a
 * new one replaces the current one; a toast is added open, can be updated and dismissed
 * (closed), and is removed TOAST_REMOVE_DELAY_MS after dismissal.
 */
type ToastVariant = "default" | "destructive";

export type ToastData = {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  action?: ReactElement;
  variant?: ToastVariant;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

export type ToastInput = Omit<ToastData, "id" | "open" | "onOpenChange">;

type State = { toasts: ToastData[] };

type Action =
  | { type: "ADD_TOAST"; toast: ToastData }
  | { type: "UPDATE_TOAST"; toast: Partial<ToastData> & { id: string } }
  | { type: "DISMISS_TOAST"; toastId?: string }
  | { type: "REMOVE_TOAST"; toastId?: string };

let count = 0;
function genId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return count.toString();
}

const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(toastId: string): void {
  if (removeTimeouts.has(toastId)) return;
  const timeout = setTimeout(() => {
    removeTimeouts.delete(toastId);
    dispatch({ type: "REMOVE_TOAST", toastId });
  }, TOAST_REMOVE_DELAY_MS);
  removeTimeouts.set(toastId, timeout);
}

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case "ADD_TOAST":
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case "UPDATE_TOAST":
      return {
        toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)),
      };
    case "DISMISS_TOAST": {
      const { toastId } = action;
      return {
        toasts: state.toasts.map((t) =>
          toastId === undefined || t.id === toastId ? { ...t, open: false } : t,
        ),
      };
    }
    case "REMOVE_TOAST":
      if (action.toastId === undefined) return { toasts: [] };
      return { toasts: state.toasts.filter((t) => t.id !== action.toastId) };
  }
}

const listeners = new Set<() => void>();
let memoryState: State = { toasts: [] };

function dispatch(action: Action): void {
  // Side effect kept out of the reducer: dismissed toasts are removed after the delay.
  if (action.type === "DISMISS_TOAST") {
    const ids = action.toastId ? [action.toastId] : memoryState.toasts.map((t) => t.id);
    for (const id of ids) scheduleRemoval(id);
  }
  memoryState = reducer(memoryState, action);
  for (const listener of listeners) listener();
}

export function dismissToast(toastId?: string): void {
  dispatch({ type: "DISMISS_TOAST", toastId });
}

/** Shows a toast, replacing the visible one. Returns handles to update or dismiss it. */
export function toast(input: ToastInput) {
  const id = genId();
  const update = (props: Partial<ToastInput>) =>
    dispatch({ type: "UPDATE_TOAST", toast: { ...props, id } });
  const dismiss = () => dismissToast(id);
  dispatch({
    type: "ADD_TOAST",
    toast: {
      ...input,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss();
      },
    },
  });
  return { id, update, dismiss };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The store's current state (for the hook and for tests). */
export function getToastState(): State {
  return memoryState;
}

export function useToast() {
  const state = useSyncExternalStore(subscribe, getToastState, getToastState);
  return { toasts: state.toasts, toast, dismiss: dismissToast };
}
