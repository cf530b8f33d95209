import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ComponentProps, useRef } from "react";
import { cn } from "../../lib/utils";
import { DialogOverlay, DialogPortal } from "./dialog";
import { isEscapeLeftToDialog } from "./escape-order";

/** A dialog that slides in from the left edge: the phone navigation drawer. */
export const Sheet = DialogPrimitive.Root;
export const SheetTrigger = DialogPrimitive.Trigger;
export const SheetTitle = DialogPrimitive.Title;
export const SheetDescription = DialogPrimitive.Description;

export function SheetContent({
  className,
  children,
  onKeyDown,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content>) {
  const close = useRef<HTMLButtonElement>(null);
  return (
    <DialogPortal>
      <DialogOverlay />
      <DialogPrimitive.Content
        data-slot="sheet-content"
        className={cn(
          "fixed inset-y-0 left-0 z-50 flex h-full w-[min(20rem,85vw)] flex-col bg-white shadow-2xl",
          "focus:outline-none",
          className,
        )}
        onKeyDown={(event) => {
          onKeyDown?.(event);
          // A toast shown above the drawer let this Escape through (escape-order.ts).
          if (event.key === "Escape" && isEscapeLeftToDialog(event.nativeEvent)) {
            close.current?.click();
          }
        }}
        {...props}
      >
        {children}
        <DialogPrimitive.Close
          ref={close}
          aria-label="Close menu"
          className={cn(
            "absolute top-4 right-3 rounded-md p-1.5 text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-900",
            "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500",
          )}
        >
          <XIcon className="size-4" aria-hidden="true" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPortal>
  );
}
