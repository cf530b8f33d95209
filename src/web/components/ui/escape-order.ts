/**
 * Escape closes what the user is working in first. A toast that appears while a dialog is
 * open would otherwise take the key (the newest layer wins), and closing the dialog would
 * need a second press. The toast lets the key through when focus is inside a dialog, and
 * marks the event so the dialog closes itself on it.
 */
const meantForDialog = new WeakSet<Event>();

/** For a toast's onEscapeKeyDown: keeps the toast and hands Escape to the focused dialog. */
export function leaveEscapeToDialog(event: KeyboardEvent): void {
  const active = document.activeElement;
  if (!active?.closest('[role="dialog"], [role="alertdialog"]')) return;
  event.preventDefault();
  meantForDialog.add(event);
}

/** Whether a toast handed this Escape to the dialog that holds the focus. */
export const isEscapeLeftToDialog = (event: Event): boolean => meantForDialog.has(event);
