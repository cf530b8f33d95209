import {
  AUDIT_PAGE_SIZE,
  type AuditEventsPage,
  type AuditEventType,
  auditEventsPageSchema,
} from "@contract";
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/** The audit trail's filters as the list and the export send them (empty ones left out). */
export type AuditFilters = {
  /** Who acted: an email address. */
  actor?: string;
  type?: AuditEventType;
  courseId?: string;
  /** Whose record: an email address. */
  learner?: string;
  learnerId?: string;
  from?: string;
  to?: string;
};

/** The filters as a query string, without the empty ones. */
function auditQueryString(filters: AuditFilters, extra: Record<string, string> = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) {
    if (value) params.set(key, value);
  }
  return params.toString();
}

/** The CSV export's address for the same filters: GET /api/audit. */
export function auditExportUrl(filters: AuditFilters) {
  const query = auditQueryString(filters);
  return `/api/audit${query ? `?${query}` : ""}`;
}

/** GET /api/audit/events: a page of events, newest first (administrators). */
const getAuditEventsPage = (filters: AuditFilters, cursor: string | null, signal?: AbortSignal) =>
  apiJson(
    auditEventsPageSchema,
    "GET",
    `/api/audit/events?${auditQueryString(filters, {
      limit: String(AUDIT_PAGE_SIZE),
      ...(cursor ? { cursor } : {}),
    })}`,
    undefined,
    { signal },
  );

const getAuditEventsInfiniteQueryOptions = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: ["/api/audit/events", filters],
    queryFn: ({ pageParam, signal }): Promise<AuditEventsPage> =>
      getAuditEventsPage(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    // While other filters load, the previous events stay on screen.
    placeholderData: keepPreviousData,
  });

/** The audit list for the filters, page by page ('Load more'). */
export function useAuditEvents(filters: AuditFilters) {
  return useInfiniteQuery(getAuditEventsInfiniteQueryOptions(filters));
}
