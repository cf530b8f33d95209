import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_LABEL, TOAST_SWIPE_THRESHOLD_PX } from "@contract";
import { CircleAlertIcon, CircleCheckIcon } from "lucide-react";
import {
  Toast,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
} from "./toast";
import { useToast } from "./use-toast";

/** Renders the toast store (SPEC section 9: 5 s, swipe right past 50 px, F8, "Notification"). */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastProvider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      label={TOAST_LABEL}
    >
      {toasts.map(({ id, title, description, action, variant, ...props }) => (
        <Toast key={id} variant={variant} data-testid="toast" {...props}>
          {variant === "destructive" ? (
            <CircleAlertIcon className="mt-0.5 size-5 shrink-0 text-red-600" aria-hidden="true" />
          ) : (
            <CircleCheckIcon
              className="mt-0.5 size-5 shrink-0 text-indigo-600"
              aria-hidden="true"
            />
          )}
          <div className="grid min-w-0 flex-1 gap-1">
            {title ? <ToastTitle data-testid="toast-title">{title}</ToastTitle> : null}
            {description ? (
              <ToastDescription data-testid="toast-description">{description}</ToastDescription>
            ) : null}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      {/* Under the page header, centred from 640 px: a toast never covers the buttons and
          links at the bottom of dialogs and pages (a dialog's save button, the sign-in page's
          Administrator setup link), nor the header's menu, profile and log-out links. */}
      <ToastViewport
        hotkey={TOAST_HOTKEY}
        className="top-14 bottom-auto sm:top-16 sm:right-auto sm:left-1/2 sm:-translate-x-1/2"
      />
    </ToastProvider>
  );
}
