import { ArrowRightIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { loadFailureHint } from "../lib/api-client";
import { Button } from "./ui/button";
import { Card, CardHeader, CardTitle } from "./ui/card";
import { Skeleton } from "./ui/skeleton";

interface RecentItemsCardProps {
  title: string;
  /** Names the list for assistive technology. */
  titleId: string;
  /** The page of every item, behind 'View all'. */
  viewAllTo: string;
  query: { isPending: boolean; isError: boolean; error: unknown };
  /** Said when the items could not be read and the error gives no better hint. */
  failure: string;
  /** The loading rows' picture and two lines, as classes, shaped like the items. */
  skeleton: { media: string; lines: [string, string] };
  /** No items: an icon, a sentence and the action that adds the first. */
  empty?: { icon: ReactNode; text: string; action: ReactNode };
  /** The items, as list entries. */
  children: ReactNode;
  /** Rendered after the card's content (a confirmation the items' actions open). */
  after?: ReactNode;
}

/**
 * A dashboard card of the newest few items (SPEC section 2: Recent Courses, Recent
 * Learners): its title with 'View all', then the items, their loading rows, why they could
 * not be read, or what to do when there are none yet.
 */
export function RecentItemsCard({
  title,
  titleId,
  viewAllTo,
  query,
  failure,
  skeleton,
  empty,
  children,
  after,
}: RecentItemsCardProps) {
  return (
    <Card className="flex flex-col">
      <CardHeader className="flex flex-row items-center justify-between gap-3 pb-1 sm:pb-2">
        <CardTitle id={titleId}>{title}</CardTitle>
        <Button asChild variant="ghost" size="sm" className="-mr-2 text-indigo-700">
          <Link to={viewAllTo}>
            View all
            <ArrowRightIcon aria-hidden="true" />
          </Link>
        </Button>
      </CardHeader>
      <div className="flex-1 px-2 pb-3 sm:px-3">
        {query.isPending ? (
          <ul aria-hidden="true" className="grid">
            {[0, 1, 2].map((i) => (
              <li key={i} className="flex items-center gap-3 p-3">
                <Skeleton className={skeleton.media} />
                <div className="grid flex-1 gap-2">
                  <Skeleton className={`h-4 ${skeleton.lines[0]}`} />
                  <Skeleton className={`h-3 ${skeleton.lines[1]}`} />
                </div>
              </li>
            ))}
          </ul>
        ) : query.isError ? (
          <p className="px-3 py-8 text-center text-sm text-zinc-600">
            {loadFailureHint(query.error, failure)}
          </p>
        ) : empty ? (
          <div className="flex flex-col items-center gap-3 px-3 py-8 text-center">
            <span className="flex size-10 items-center justify-center rounded-full bg-zinc-100 text-zinc-500">
              {empty.icon}
            </span>
            <p className="text-sm text-zinc-600">{empty.text}</p>
            {empty.action}
          </div>
        ) : (
          <ul aria-labelledby={titleId} className="grid">
            {children}
          </ul>
        )}
      </div>
      {after}
    </Card>
  );
}
