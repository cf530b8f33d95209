import { type ReactNode, useCallback, useRef, useState } from "react";
import { Button } from "./button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "./dialog";

/** What a confirmation asks: a short title, the exact confirmation text and the action. */
export type ConfirmRequest = {
  title: string;
  message: string;
  /** The confirming button: the action itself ("Delete"), never a bare "OK". */
  confirmLabel: string;
};

/**
 * The portal's own confirmation in place of the browser's `confirm` box: an alert dialog
 * that names the action, reads its text to screen readers, starts on Cancel (the safe
 * answer), and closes to Cancel with Escape or a click outside. `confirm(request)` resolves
 * true only when the action's button is chosen; render `dialog` once in the component.
 */
export function useConfirm(): [(request: ConfirmRequest) => Promise<boolean>, ReactNode] {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  const confirm = useCallback((next: ConfirmRequest) => {
    // A request still open is answered no: only one confirmation shows at a time.
    answer.current?.(false);
    setRequest(next);
    return new Promise<boolean>((resolve) => {
      answer.current = resolve;
    });
  }, []);

  const settle = (confirmed: boolean) => {
    answer.current?.(confirmed);
    answer.current = null;
    setRequest(null);
  };

  const dialog = (
    <Dialog open={request !== null} onOpenChange={(open) => (open ? null : settle(false))}>
      <DialogContent
        role="alertdialog"
        hideClose
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          cancel.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{request?.title}</DialogTitle>
          <DialogDescription className="whitespace-pre-line">{request?.message}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button ref={cancel} variant="outline" onClick={() => settle(false)}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => settle(true)}>
            {request?.confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
  return [confirm, dialog];
}
