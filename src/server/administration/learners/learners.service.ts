import { LRUCache } from "lru-cache";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database } from "../../db/client";
import { decodeCursor, type KeysetCursor, pageOf } from "../../db/cursor";
import { createReadCache } from "../../db/read-cache";
import { createLearnerSearch } from "./learner-search";
import { createLearnersRepository } from "./learners.repository";

/** Searches remembered as asked, so that the second ask of one is kept (see `page`). */
const SEARCHES_REMEMBERED = 5_000;

/** A page as answered, with what it shows (to drop it when any of that changes). */
interface CachedPage {
  json: string;
  nextCursor: string | null;
  learnerIds: string[];
  courseIds: string[];
}

/** The administrators' view of learners: pages with each learner's enrollment figures. */
export function createLearnersService({ db, changes }: { db: Database; changes?: ChangeFeed }) {
  const repo = createLearnersRepository(db);
  /**
   * Pages as answered, by page size, cursor and search. Administrators open the same pages
   * again and again (the first page on every visit, a search while they work through its
   * results: kept from its second ask, see `askedBefore`), and a page is the portal's
   * heaviest read after the reports. A page is dropped when anyone joins, leaves or changes
   * on the list (its order and who matches a search depend on every learner), when one of
   * its learners' enrollments changes, or one of their courses, or a sign-on provider it
   * names.
   */
  const pages = changes
    ? createReadCache<CachedPage>({
        feed: changes,
        tables: ["users", "enrollments", "courses", "identity_providers"],
        tagsOf: (page) => [
          "users",
          "identity_providers",
          ...page.learnerIds.map((id) => `enrollments:${id}`),
          ...page.courseIds.map((id) => `courses:${id}`),
        ],
        max: 500,
        // About 35 KB a page of 25 learners.
        maxBytes: { total: 16 * 1024 * 1024, of: (page) => page.json.length },
        ttlMs: 5 * 60_000,
      })
    : undefined;

  const search = changes ? createLearnerSearch({ source: repo, changes }) : undefined;

  /**
   * Searches asked before, by page key. A search asked once (an administrator trying a
   * name, a term typed and left) is answered without being kept: keeping it would push out
   * the pages administrators do reopen, and cost the cache's bookkeeping of the page's
   * learners and courses for nothing. A search asked again is kept from then on.
   */
  const searchesAsked = new LRUCache<string, true>({ max: SEARCHES_REMEMBERED });
  const askedBefore = (key: string) => {
    if (searchesAsked.has(key)) return true;
    searchesAsked.set(key, true);
    return false;
  };

  /**
   * A page's rows. A search asks the index for its candidates first, and PostgreSQL checks,
   * orders and cuts only those; should PostgreSQL's own search disagree with the index about
   * one of them (a letter the database folds differently), PostgreSQL searches the page.
   */
  async function rowsOf(options: { limit: number; after?: KeysetCursor; q?: string }) {
    const window = options.q
      ? await search?.window(options.q, options.limit, options.after)
      : undefined;
    if (window) {
      const rows = window.ids.length ? await repo.page({ ...options, among: window.ids }) : [];
      if (rows.length >= window.expected) return rows;
    }
    return repo.page(options);
  }

  async function load(input: { limit: number; cursor?: string; q?: string }) {
    const rows = await rowsOf({
      limit: input.limit + 1,
      after: decodeCursor(input.cursor),
      q: input.q || undefined,
    });
    const { items, nextCursor } = pageOf(rows, input.limit);
    const courseIds = new Set(items.flatMap((row) => row.courseIds));
    return {
      json: `[${items.map((row) => row.json).join(",")}]`,
      nextCursor,
      learnerIds: items.map((row) => row.id),
      courseIds: [...courseIds],
    };
  }

  return {
    /** Builds the search index at start (learner-search.ts), without waiting for it. */
    prepareSearch: () => {
      void search?.prepare();
    },

    /**
     * A page of learners as the JSON text of a `LearnerSummary[]` (one query, the
     * JSON built by PostgreSQL; see learners.repository.ts), and the next page's cursor.
     */
    async page(input: { limit: number; cursor?: string; q?: string }) {
      const key = JSON.stringify([input.limit, input.cursor ?? "", input.q ?? ""]);
      // A bad cursor is refused before the cache is asked.
      decodeCursor(input.cursor);
      const kept = pages && (!input.q || askedBefore(key)) ? pages : undefined;
      const page =
        (kept ? await kept.get(key, () => load(input)) : undefined) ?? (await load(input));
      return { json: page.json, nextCursor: page.nextCursor };
    },
  };
}

export type LearnersService = ReturnType<typeof createLearnersService>;
