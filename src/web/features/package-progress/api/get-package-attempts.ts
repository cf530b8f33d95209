import {
  DEFAULT_PAGE_SIZE,
  NEXT_CURSOR_HEADER,
  type PackageProgressRow,
  type PackageProgressSort,
  packageProgressRowSchema,
} from "@contract";
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest, readAnswer } from "../../../lib/api-client";

type Target = { courseId: string; moduleId: string };

const attemptsPath = ({ courseId, moduleId }: Target) =>
  `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/package/attempts`;

/** Every cached page of a module's learners (a reset refreshes them all). */
export const packageAttemptsQueryKey = (target: Target) =>
  ["/api/courses", target.courseId, "modules", target.moduleId, "package", "attempts"] as const;

export type PackageAttemptsPage = { items: PackageProgressRow[]; nextCursor: string | null };

/** The CSV download of the learners shown (the same search and order), for a plain link. */
export function packageAttemptsCsvUrl(target: Target, q: string, sort: PackageProgressSort) {
  const params = new URLSearchParams({ format: "csv", sort });
  if (q) params.set("q", q);
  return `${attemptsPath(target)}?${params}`;
}

/**
 * GET .../package/attempts: one page of the module's enrolled learners with their status,
 * score, times and attempts; the next page's cursor comes in the x-next-cursor header.
 */
async function getPackageAttemptsPage(
  target: Target,
  params: { q: string; sort: PackageProgressSort; cursor: string | null },
  signal?: AbortSignal,
): Promise<PackageAttemptsPage> {
  const search = new URLSearchParams({ limit: String(DEFAULT_PAGE_SIZE), sort: params.sort });
  if (params.q) search.set("q", params.q);
  if (params.cursor) search.set("cursor", params.cursor);
  const url = `${attemptsPath(target)}?${search}`;
  const res = await apiRequest("GET", url, undefined, { signal });
  return {
    items: await readAnswer(z.array(packageProgressRowSchema), url, res),
    nextCursor: res.headers.get(NEXT_CURSOR_HEADER),
  };
}

export function usePackageAttempts(target: Target, q: string, sort: PackageProgressSort) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: [...packageAttemptsQueryKey(target), { q, sort }],
      queryFn: ({ pageParam, signal }) =>
        getPackageAttemptsPage(target, { q, sort, cursor: pageParam }, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (lastPage) => lastPage.nextCursor,
      // While a new search loads, the previous results stay on screen.
      placeholderData: keepPreviousData,
    }),
  );
}
