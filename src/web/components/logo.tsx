import { cn } from "../lib/utils";

/** The product mark: a graduation cap on an indigo tile (same drawing as the favicon). */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" fill="none" aria-hidden="true" className={cn("size-8", className)}>
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <path d="M8 12.5 16 8.5l8 4-8 4-8-4Z" fill="#fff" />
      <path
        d="M11.5 15v4.6c0 1.4 2 2.9 4.5 2.9s4.5-1.5 4.5-2.9V15L16 17.3 11.5 15Z"
        fill="#c7d2fe"
      />
      <path d="M24 12.5v5.5" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

/** Mark and product name side by side. */
export function Logo({ name, className }: { name: string; className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2.5", className)}>
      <LogoMark />
      <span className="text-[17px] font-semibold tracking-tight">{name}</span>
    </span>
  );
}
