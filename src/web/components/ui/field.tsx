import type { ReactNode } from "react";
import { cn } from "../../lib/utils";
import { Label } from "./label";

type FieldProps = {
  /** The id of the control the label points at. */
  id: string;
  label: ReactNode;
  /** An inline validation message, announced through aria-describedby. */
  error?: string;
  /** Helper text under the control. */
  hint?: ReactNode;
  /** Extra content on the label's line (e.g. a "Forgot password?" link). */
  labelAside?: ReactNode;
  className?: string;
  children: ReactNode;
};

/** Ids for the hint and error of a field, for the control's aria-describedby. */
export function fieldDescribedBy(id: string, opts: { hint?: boolean; error?: boolean }) {
  const ids = [opts.hint ? `${id}-hint` : null, opts.error ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/**
 * A field control's aria-invalid and aria-describedby, from its error (and whether the field
 * has a hint, which Field hides while an error shows): spread onto the control,
 * `{...fieldAria("id", errors.name)}`.
 */
export function fieldAria(id: string, error: unknown, opts: { hint?: boolean } = {}) {
  return {
    "aria-invalid": error ? (true as const) : undefined,
    "aria-describedby": fieldDescribedBy(id, { hint: opts.hint && !error, error: !!error }),
  };
}

/** A label, one control, and its hint or error, stacked with consistent spacing. */
export function Field({ id, label, error, hint, labelAside, className, children }: FieldProps) {
  return (
    <div className={cn("grid content-start gap-2", className)}>
      <div className="flex min-h-4 items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {labelAside}
      </div>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-zinc-600">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

/**
 * A control's refusal, read out as it appears; nothing while there is none. Its id is the
 * one the control's aria-describedby names (`fieldAria`).
 */
export function FieldError({ id, children }: { id?: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className="text-xs font-medium text-red-700">
      {children}
    </p>
  );
}
