import { TOAST_REMOVE_DELAY_MS } from "@contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dismissToast, getToastState, reducer, type ToastData, toast } from "./use-toast";

const make = (id: string, extra: Partial<ToastData> = {}): ToastData => ({
  id,
  title: `toast ${id}`,
  open: true,
  onOpenChange: () => {},
  ...extra,
});

describe("toast reducer (SPEC section 4)", () => {
  it("keeps at most one toast: a new one replaces the current one", () => {
    let state = reducer({ toasts: [] }, { type: "ADD_TOAST", toast: make("1") });
    state = reducer(state, { type: "ADD_TOAST", toast: make("2") });
    expect(state.toasts.map((t) => t.id)).toEqual(["2"]);
  });

  it("updates a toast in place", () => {
    const state = reducer(
      { toasts: [make("1")] },
      { type: "UPDATE_TOAST", toast: { id: "1", title: "changed" } },
    );
    expect(state.toasts[0]?.title).toBe("changed");
    expect(state.toasts[0]?.open).toBe(true);
  });

  it("dismissing closes the toast; removing drops it", () => {
    let state = reducer({ toasts: [make("1")] }, { type: "DISMISS_TOAST", toastId: "1" });
    expect(state.toasts[0]?.open).toBe(false);
    state = reducer(state, { type: "REMOVE_TOAST", toastId: "1" });
    expect(state.toasts).toEqual([]);
  });
});

describe("toast()", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("adds open, updates, and removes a dismissed toast only after the removal delay", () => {
    const handle = toast({ title: "Saved" });
    expect(getToastState().toasts.map((t) => [t.id, t.open])).toEqual([[handle.id, true]]);
    handle.update({ description: "All good" });
    dismissToast(handle.id);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(getToastState().toasts.map((t) => [t.id, t.open, t.description])).toEqual([
      [handle.id, false, "All good"],
    ]);
    vi.advanceTimersByTime(1);
    expect(getToastState().toasts).toEqual([]);
  });

  it("closing from the UI (onOpenChange false) dismisses the toast", () => {
    const handle = toast({ title: "Closable" });
    getToastState().toasts[0]?.onOpenChange(false);
    expect(getToastState().toasts[0]).toMatchObject({ id: handle.id, open: false });
  });
});
