import { CircleAlertIcon } from "lucide-react";

/** The server's refusal of a whole form (a 400 or 409), shown above its buttons. */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      data-testid="form-alert"
      className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-900"
    >
      <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span className="break-words">{message}</span>
    </p>
  );
}
