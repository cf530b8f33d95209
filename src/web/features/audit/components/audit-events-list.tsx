import { AUDIT_EVENT_LABELS, type AuditEvent, type AuditEventType } from "@contract";
import { ScrollTextIcon, SearchXIcon } from "lucide-react";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { EmptyState } from "../../../components/ui/empty-state";
import { LoadError } from "../../../components/ui/load-error";
import { ScrollRegion } from "../../../components/ui/scroll-region";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { plural } from "../../../lib/format";
import { type AuditFilters, useAuditEvents } from "../api/get-audit-events";

const labelOf = (type: string) => AUDIT_EVENT_LABELS[type as AuditEventType] ?? type;

/**
 * An email on one line, never broken inside. On a phone's card, an address too long for the
 * screen ends in an ellipsis (the card's `[&_[data-email]]:truncate`); the whole address
 * stays in the text and its tooltip.
 */
const Email = ({ email }: { email: string }) => (
  <span data-email title={email} className="block text-xs whitespace-nowrap text-zinc-600">
    {email}
  </span>
);

/** Who acted: a person, or the portal itself for a background job. */
function Actor({ actor }: { actor: AuditEvent["actor"] }) {
  if (!actor) return <span className="text-zinc-600">System</span>;
  return (
    <span className="grid min-w-0 gap-0.5">
      <span className="font-medium text-zinc-950">
        {actor.name ?? "Deleted user"}
        {actor.role === "learner" ? (
          <span className="font-normal text-zinc-600"> (learner)</span>
        ) : null}
      </span>
      {actor.email ? <Email email={actor.email} /> : null}
    </span>
  );
}

/** The course and the learner an event concerns, when it names them. */
function Concerning({ event }: { event: AuditEvent }) {
  if (!event.course && !event.learner) return <span className="text-zinc-500">—</span>;
  return (
    <span className="grid gap-1">
      {event.course ? (
        <span className="text-zinc-900">{event.course.title ?? "Deleted course"}</span>
      ) : null}
      {event.learner ? (
        <span className="grid min-w-0 gap-0.5">
          <span className="text-zinc-900">{event.learner.name ?? "Deleted learner"}</span>
          {event.learner.email ? <Email email={event.learner.email} /> : null}
        </span>
      ) : null}
    </span>
  );
}

function At({ at }: { at: string }) {
  const dates = useDates();
  return (
    <time dateTime={at} className="whitespace-nowrap text-zinc-700 tabular-nums">
      {dates.dateTime(at)}
    </time>
  );
}

/** What happened: the event's kind and, in words, what it did. */
const What = ({ event }: { event: AuditEvent }) => (
  <span className="grid justify-items-start gap-1">
    <Badge variant="secondary">{labelOf(event.type)}</Badge>
    <span className="text-zinc-900">{event.summary}</span>
  </span>
);

/**
 * The audit events matching the filters, newest first, 25 at a time. A table from tablet
 * width; on phones each event is a card of its own, so no column squeezes an email.
 */
export function AuditEventsList({
  filters,
  filtered,
  onClear,
}: {
  filters: AuditFilters;
  filtered: boolean;
  onClear: () => void;
}) {
  const query = useAuditEvents(filters);
  const events = query.data?.pages.flatMap((p) => p.events) ?? [];

  if (query.isPending) {
    return (
      <div className="grid gap-2" role="status">
        <span className="sr-only">Loading events</span>
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  if (query.isError && !query.data) {
    return (
      <LoadError
        message={loadFailureHint(query.error, "The audit trail could not be loaded.")}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (events.length === 0) {
    return filtered ? (
      <EmptyState
        icon={<SearchXIcon />}
        title="No events match these filters"
        description="Check the email addresses and the dates, or clear the filters."
        action={
          <Button variant="outline" onClick={onClear}>
            Clear filters
          </Button>
        }
      />
    ) : (
      <EmptyState
        icon={<ScrollTextIcon />}
        title="No events yet"
        description="Changes to courses and learners' progress appear here as they happen."
      />
    );
  }

  return (
    <div className="grid gap-3" aria-busy={query.isFetching || undefined}>
      <ScrollRegion
        aria-labelledby="audit-events-title"
        className="hidden overflow-x-auto rounded-xl border border-zinc-200 bg-white md:block"
      >
        <table aria-labelledby="audit-events-title" className="w-full text-left text-sm">
          <thead className="bg-zinc-50 text-xs text-zinc-600">
            <tr>
              <th scope="col" className="w-40 px-4 py-2.5 font-medium">
                When
              </th>
              <th scope="col" className="px-3 py-2.5 font-medium">
                Who
              </th>
              <th scope="col" className="w-[35%] px-3 py-2.5 font-medium">
                What
              </th>
              <th scope="col" className="w-1/4 px-4 py-2.5 font-medium">
                Course and learner
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {events.map((event) => (
              <tr key={event.seq} data-testid="audit-event" className="align-top">
                <td className="px-4 py-3">
                  <At at={event.at} />
                </td>
                <td className="px-3 py-3">
                  <Actor actor={event.actor} />
                </td>
                <td className="px-3 py-3">
                  <What event={event} />
                </td>
                <td className="px-4 py-3">
                  <Concerning event={event} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <ul aria-labelledby="audit-events-title" className="grid gap-3 md:hidden">
        {events.map((event) => (
          <li
            key={event.seq}
            data-testid="audit-event-card"
            className="grid gap-3 rounded-xl border border-zinc-200 bg-white p-4 text-sm [&_[data-email]]:truncate"
          >
            <What event={event} />
            <dl className="grid min-w-0 gap-2">
              <div className="grid gap-0.5">
                <dt className="text-xs font-medium text-zinc-600">When</dt>
                <dd>
                  <At at={event.at} />
                </dd>
              </div>
              <div className="grid min-w-0 gap-0.5">
                <dt className="text-xs font-medium text-zinc-600">Who</dt>
                <dd>
                  <Actor actor={event.actor} />
                </dd>
              </div>
              {event.course || event.learner ? (
                <div className="grid gap-0.5">
                  <dt className="text-xs font-medium text-zinc-600">Course and learner</dt>
                  <dd>
                    <Concerning event={event} />
                  </dd>
                </div>
              ) : null}
            </dl>
          </li>
        ))}
      </ul>
      <div className="flex min-h-12 flex-wrap items-center justify-center gap-3">
        {query.hasNextPage ? (
          <Button
            variant="outline"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
          >
            {query.isFetchingNextPage ? <Spinner /> : null}
            {query.isFetchingNextPage ? "Loading..." : "Load more"}
          </Button>
        ) : (
          <p className="text-sm text-zinc-600">
            {events.length === 1 ? "1 event" : `All ${plural(events.length, "event")}`} shown
          </p>
        )}
      </div>
    </div>
  );
}
