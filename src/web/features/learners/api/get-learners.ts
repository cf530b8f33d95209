import {
  DASHBOARD_RECENT_ITEMS,
  DEFAULT_PAGE_SIZE,
  type LearnerSummary,
  learnerSummarySchema,
  NEXT_CURSOR_HEADER,
} from "@contract";
import {
  type InfiniteData,
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest, readAnswer } from "../../../lib/api-client";

export const learnersQueryKey = ["/api/users/learners"] as const;

export type LearnersPage = { items: LearnerSummary[]; nextCursor: string | null };
type LearnersPageParams = { q?: string; cursor?: string; limit?: number };

/**
 * GET /api/users/learners: one page of learners, newest first, with their enrollment
 * figures. The body is the page; the next page's cursor comes in the x-next-cursor header.
 */
async function getLearnersPage(
  { q, cursor, limit = DEFAULT_PAGE_SIZE }: LearnersPageParams,
  signal?: AbortSignal,
): Promise<LearnersPage> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (q) params.set("q", q);
  if (cursor) params.set("cursor", cursor);
  const url = `/api/users/learners?${params}`;
  const res = await apiRequest("GET", url, undefined, { signal });
  return {
    items: await readAnswer(z.array(learnerSummarySchema), url, res),
    nextCursor: res.headers.get(NEXT_CURSOR_HEADER),
  };
}

export const learnersListQueryKey = (q: string) => [...learnersQueryKey, "list", { q }] as const;

/** Keyset-paginated learners matching `q` (name or email), for useInfiniteQuery. */
const getLearnersInfiniteQueryOptions = (q: string) =>
  infiniteQueryOptions({
    queryKey: learnersListQueryKey(q),
    queryFn: ({ pageParam, signal }) =>
      getLearnersPage({ q: q || undefined, cursor: pageParam ?? undefined }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    // While a new search loads, the previous results stay on screen.
    placeholderData: keepPreviousData,
  });

export function useLearners(q: string) {
  return useInfiniteQuery(getLearnersInfiniteQueryOptions(q));
}

/** The dashboard's 'Recent Learners': the newest 3. */
export const getRecentLearnersQueryOptions = () =>
  queryOptions({
    queryKey: [...learnersQueryKey, "recent"],
    queryFn: ({ signal }) =>
      getLearnersPage({ limit: DASHBOARD_RECENT_ITEMS }, signal).then((page) => page.items),
  });

export function useRecentLearners() {
  return useQuery(getRecentLearnersQueryOptions());
}

/** One learner's fresh summary (found by their unique email), or undefined. */
export async function getLearnerSummary(
  learner: Pick<LearnerSummary, "id" | "email">,
): Promise<LearnerSummary | undefined> {
  const { items } = await getLearnersPage({ q: learner.email, limit: 10 });
  return items.find((item) => item.id === learner.id);
}

type LearnersCache = InfiniteData<LearnersPage, string | null>;

/** Applies `update` to this learner wherever the cached lists hold them (null removes them). */
export function patchCachedLearner(
  queryClient: QueryClient,
  learnerId: string,
  update: (learner: LearnerSummary) => LearnerSummary | null,
) {
  const apply = (items: LearnerSummary[]) =>
    items.flatMap((item) => {
      if (item.id !== learnerId) return [item];
      const next = update(item);
      return next ? [next] : [];
    });
  queryClient.setQueriesData<LearnersCache>(
    { queryKey: [...learnersQueryKey, "list"] },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({ ...page, items: apply(page.items) })),
      },
  );
  queryClient.setQueriesData<LearnerSummary[]>(
    { queryKey: [...learnersQueryKey, "recent"] },
    (data) => data && apply(data),
  );
}
