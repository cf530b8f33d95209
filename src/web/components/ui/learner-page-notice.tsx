import type { LucideIcon } from "lucide-react";
import { ArrowLeftIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "./button";

/** A whole page telling a learner why a course screen cannot open, with the way back. */
export function LearnerPageNotice({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center px-4 py-16 text-center sm:py-24">
      <span className="flex size-14 items-center justify-center rounded-full bg-zinc-100 text-zinc-600 ring-8 ring-zinc-100/50">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight text-balance text-zinc-950">
        {title}
      </h1>
      <p className="mt-2 max-w-md text-[15px] leading-relaxed text-zinc-600">{children}</p>
      <Button asChild size="lg" className="mt-8">
        <Link to="/learner">
          <ArrowLeftIcon aria-hidden="true" />
          Back to my learning
        </Link>
      </Button>
    </div>
  );
}
