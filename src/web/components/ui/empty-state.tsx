import type { ReactNode } from "react";
import { cn } from "../../lib/utils";

/** A calm, centred message for a list with nothing to show, with an optional action. */
export function EmptyState({
  icon,
  title,
  description,
  action,
  className,
  titleAs: Title = "p",
}: {
  /** Render the title as the page's heading when the empty state is the whole page. */
  titleAs?: "p" | "h1" | "h2" | "h3";
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center justify-center rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center",
        className,
      )}
    >
      {icon ? (
        <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-zinc-100 text-zinc-500 [&_svg]:size-6">
          {icon}
        </div>
      ) : null}
      <Title className="text-base font-semibold text-zinc-900">{title}</Title>
      {description ? <p className="mt-1 max-w-sm text-sm text-zinc-600">{description}</p> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
