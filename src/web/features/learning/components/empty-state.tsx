import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../../lib/utils";

/** A friendly "nothing here yet" block: an icon, a title, one sentence and an optional action. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  className,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center sm:py-14",
        className,
      )}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-700 ring-8 ring-indigo-50/50">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <h3 className="mt-5 text-base font-semibold text-zinc-950">{title}</h3>
      <p className="mt-1.5 max-w-sm text-sm leading-relaxed text-zinc-600">{children}</p>
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
