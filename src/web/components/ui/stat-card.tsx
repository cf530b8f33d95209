import { ChevronRightIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "../../lib/utils";
import { Skeleton } from "./skeleton";

type Tone = "indigo" | "emerald" | "amber" | "sky" | "violet" | "zinc";

const TONES: Record<Tone, string> = {
  indigo: "bg-indigo-50 text-indigo-700",
  emerald: "bg-emerald-50 text-emerald-700",
  amber: "bg-amber-50 text-amber-700",
  sky: "bg-sky-50 text-sky-700",
  violet: "bg-violet-50 text-violet-700",
  zinc: "bg-zinc-100 text-zinc-700",
};

type StatCardProps = {
  label: string;
  /** Undefined while loading: a skeleton stands in. */
  value: ReactNode | undefined;
  icon?: ReactNode;
  tone?: Tone;
  hint?: ReactNode;
  /** Makes the whole card a link. */
  to?: string;
  className?: string;
};

/** A figure with its label; a link when `to` is given (the dashboard's clickable cards). */
export function StatCard({
  label,
  value,
  icon,
  tone = "indigo",
  hint,
  to,
  className,
}: StatCardProps) {
  const body = (
    <>
      <div className="flex items-start justify-between gap-3">
        <p className="min-w-0 text-sm font-medium text-zinc-600">{label}</p>
        {icon ? (
          <span
            aria-hidden="true"
            className={cn(
              // Hidden on phones, where two or three cards share a row.
              "hidden size-9 shrink-0 items-center justify-center rounded-lg sm:flex [&_svg]:size-[18px]",
              TONES[tone],
            )}
          >
            {icon}
          </span>
        ) : null}
      </div>
      <div className="mt-1 flex items-end justify-between gap-2">
        {value === undefined ? (
          <Skeleton className="h-8 w-16" />
        ) : (
          <p
            className="text-2xl font-semibold tracking-tight text-zinc-950 tabular-nums sm:text-[28px]"
            data-testid="stat-value"
          >
            {value}
          </p>
        )}
        {to ? (
          <ChevronRightIcon
            className="mb-1 size-4 text-zinc-400 transition-transform group-hover:translate-x-0.5 group-hover:text-indigo-600"
            aria-hidden="true"
          />
        ) : null}
      </div>
      {hint ? <p className="mt-1 text-xs text-zinc-500">{hint}</p> : null}
    </>
  );
  const base = cn(
    "group block rounded-2xl border border-zinc-200 bg-white p-4 shadow-xs shadow-zinc-950/5 sm:p-5",
    className,
  );
  if (to) {
    return (
      <Link
        to={to}
        data-testid="stat-card"
        className={cn(
          base,
          "transition-[box-shadow,border-color] hover:border-indigo-200 hover:shadow-md hover:shadow-indigo-950/5",
          "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2",
        )}
      >
        {body}
      </Link>
    );
  }
  return (
    <div data-testid="stat-card" className={base}>
      {body}
    </div>
  );
}
