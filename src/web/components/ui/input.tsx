import type { ComponentProps } from "react";
import { cn } from "../../lib/utils";

export const inputClassName = cn(
  "flex h-10 w-full min-w-0 rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs",
  "placeholder:text-zinc-500 transition-[color,box-shadow,border-color]",
  "focus-visible:outline-none focus-visible:border-indigo-500 focus-visible:ring-3 focus-visible:ring-indigo-500/25",
  "disabled:cursor-not-allowed disabled:bg-zinc-100 disabled:opacity-70",
  "read-only:bg-zinc-50 read-only:text-zinc-600",
  "aria-invalid:border-red-500 aria-invalid:focus-visible:ring-red-500/25",
);

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return (
    <input data-slot="input" type={type} className={cn(inputClassName, className)} {...props} />
  );
}
