import type { ComponentProps } from "react";
import { cn } from "../../lib/utils";
import { inputClassName } from "./input";

/** A native select dressed as an input (a select matches `:read-only`, which greys inputs). */
export function NativeSelect({ className, ...props }: ComponentProps<"select">) {
  return (
    <select
      className={cn(inputClassName, "pr-8 read-only:bg-white read-only:text-zinc-900", className)}
      {...props}
    />
  );
}
