import { initials } from "../lib/format";
import { cn } from "../lib/utils";

/** A person as their initials in a circle: the headers, account and learner cards. */
export function UserAvatar({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-[13px] font-semibold text-indigo-800",
        className,
      )}
    >
      {initials(name)}
    </span>
  );
}
