import { EyeIcon, EyeOffIcon } from "lucide-react";
import { type ComponentProps, useState } from "react";
import { cn } from "../../lib/utils";
import { DeferredTooltip } from "./deferred-tooltip";
import { Input } from "./input";

type PasswordInputProps = Omit<ComponentProps<"input">, "type"> & {
  /** Names the field in the toggle's label, e.g. "confirm password". */
  toggleLabel?: string;
};

/** A password input with a show/hide toggle button. */
export function PasswordInput({
  className,
  toggleLabel = "password",
  ...props
}: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input
        type={visible ? "text" : "password"}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        className={cn("pr-11", className)}
        {...props}
      />
      <DeferredTooltip content={visible ? "Hide password" : "Show password"}>
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={`${visible ? "Hide" : "Show"} ${toggleLabel}`}
          disabled={props.disabled}
          className={cn(
            "absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-zinc-500 transition-colors",
            "hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500",
            "disabled:opacity-50",
          )}
        >
          {visible ? (
            <EyeOffIcon className="size-4" aria-hidden="true" />
          ) : (
            <EyeIcon className="size-4" aria-hidden="true" />
          )}
        </button>
      </DeferredTooltip>
    </div>
  );
}
