import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ComponentProps, useRef } from "react";
import { cn } from "../../lib/utils";
import { isEscapeLeftToDialog } from "./escape-order";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;
export const DialogPortal = DialogPrimitive.Portal;

export function DialogOverlay({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      data-slot="dialog-overlay"
      // A plain dimmed backdrop, not a blurred one: a blur of the whole screen is redrawn on
      // every frame while the dialog is open, which a machine without graphics acceleration
      // pays for.
      className={cn("fixed inset-0 z-50 bg-zinc-950/50", className)}
      {...props}
    />
  );
}

export function DialogContent({
  className,
  children,
  hideClose = false,
  onKeyDown,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { hideClose?: boolean }) {
  const close = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPortal>
      <DialogOverlay />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          "fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2",
          "gap-5 overflow-y-auto rounded-2xl border border-zinc-200 bg-white p-6 shadow-2xl shadow-zinc-950/10",
          "focus:outline-none",
          className,
        )}
        onKeyDown={(event) => {
          onKeyDown?.(event);
          // A toast shown above the dialog let this Escape through (escape-order.ts).
          if (event.key === "Escape" && isEscapeLeftToDialog(event.nativeEvent)) {
            close.current?.click();
          }
        }}
        onOpenAutoFocus={(event) => {
          // Still the control that opened the dialog: focus has not moved in yet.
          const active = document.activeElement;
          opener.current =
            active instanceof HTMLElement && active !== document.body ? active : null;
          onOpenAutoFocus?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const back = opener.current;
          opener.current = null;
          if (event.defaultPrevented || !back?.isConnected) return;
          // Most dialogs open from a button that is not their Radix trigger (a row's Edit, a
          // confirmation), and Radix would leave the focus on the page itself: a keyboard user
          // is sent back to the top. The button that opened the dialog takes it back instead.
          back.focus();
          if (document.activeElement === back) event.preventDefault();
        }}
        {...props}
      >
        {children}
        {hideClose ? (
          <DialogPrimitive.Close ref={close} hidden tabIndex={-1} />
        ) : (
          <DialogPrimitive.Close
            ref={close}
            aria-label="Close"
            className={cn(
              "absolute top-4 right-4 rounded-md p-1 text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-900",
              "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
            )}
          >
            <XIcon className="size-4" aria-hidden="true" />
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPortal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("grid gap-1.5 pr-6", className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)}
      {...props}
    />
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      className={cn("text-lg leading-tight font-semibold tracking-tight text-zinc-950", className)}
      {...props}
    />
  );
}

export function DialogDescription({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      className={cn("text-sm leading-relaxed text-zinc-600", className)}
      {...props}
    />
  );
}
