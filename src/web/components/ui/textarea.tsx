import type { ComponentProps } from "react";
import { cn } from "../../lib/utils";
import { inputClassName } from "./input";

export function Textarea({ className, rows = 3, ...props }: ComponentProps<"textarea">) {
  return (
    <textarea
      data-slot="textarea"
      rows={rows}
      className={cn(inputClassName, "h-auto min-h-20 resize-y leading-relaxed", className)}
      {...props}
    />
  );
}
