import type { ChangeFeed } from "../../db/change-feed";
import { LearnerSearchIndex, type SearchWindow } from "./learner-search-index";
import type { LearnersRepository } from "./learners.repository";

/**
 * The most learners the index holds (about 200 bytes each): past it PostgreSQL's trigram
 * index answers every search, and the learners are counted again after RECOUNT_MS.
 */
const MOST_INDEXED = 250_000;
const RECOUNT_MS = 15 * 60_000;

type SearchSource = Pick<LearnersRepository, "searchEntries" | "searchEntriesOf">;

/**
 * The Learners page's search index, kept current by the change feed: a learner who joins,
 * changes name or email, leaves or stops being a learner is read again before the next
 * search, in this instance and every other (the feed's notifications). While the feed is
 * not live, and in a portal of more learners than it holds, it answers nothing and
 * PostgreSQL searches. It is built at start, and again after a lost feed or a change of
 * more than a tenth of the learners at once. No search waits for a build (most of a second
 * at 100,000 learners on a quiet portal, longer on a busy one, whose requests it gives way
 * to): PostgreSQL answers the searches that come meanwhile.
 */
export function createLearnerSearch({
  source,
  changes,
  most = MOST_INDEXED,
  now = Date.now,
}: {
  source: SearchSource;
  changes: ChangeFeed;
  /** The most learners indexed (MOST_INDEXED). */
  most?: number;
  now?: () => number;
}) {
  let index: LearnerSearchIndex | undefined;
  let rebuild = true;
  let building = false;
  let recountAt = 0;
  const changed = new Set<string>();
  let catchingUp: Promise<void> | undefined;

  changes.subscribe((table, key) => {
    if (table === "*" || (table === "users" && key === "*")) rebuild = true;
    else if (table === "users") changed.add(key);
  });

  const behind = () => (rebuild && now() >= recountAt) || (index !== undefined && changed.size > 0);

  async function catchUp() {
    if (rebuild || index?.outweighed(changed.size)) {
      rebuild = false;
      index = undefined;
      building = true;
      try {
        // Changes from here on are read again after the build, which may or may not see them.
        changed.clear();
        const rows = await source.searchEntries(most);
        if (!rows) {
          rebuild = true;
          recountAt = now() + RECOUNT_MS;
          return;
        }
        index = await LearnerSearchIndex.build(rows);
      } finally {
        building = false;
      }
    }
    const built = index;
    if (!built || changed.size === 0) return;
    const ids = [...changed];
    changed.clear();
    built.apply(ids, await source.searchEntriesOf(ids));
  }

  async function current(): Promise<LearnerSearchIndex | undefined> {
    // Changed learners are read again before this search; a build is waited for by none.
    while (catchingUp && !building) await catchingUp;
    if (changes.live && !building && behind()) {
      catchingUp = catchUp()
        .catch(() => {
          // A read that failed leaves the index behind: PostgreSQL answers this search (and
          // reports the database's trouble itself), and the next one builds the index again.
          index = undefined;
          rebuild = true;
        })
        .finally(() => {
          catchingUp = undefined;
        });
      // catchUp sets `building` before its first read: a build runs on without this search,
      // while catching up with changed learners (one read) is waited for.
      if (!building) await catchingUp;
    }
    return changes.live && !building ? index : undefined;
  }

  return {
    /**
     * Builds the index in the background, at start: the first search then finds it built,
     * and no learner's request waits behind the build while the portal is busiest. Settles
     * when the build under way, if any, has ended (a test waits for it; the portal does not).
     */
    prepare(): Promise<void> {
      void current();
      return catchingUp ?? Promise.resolve();
    },

    /** The candidates for a page of learners matching `term`; undefined when PostgreSQL must search. */
    async window(
      term: string,
      want: number,
      after?: { createdAt: string },
    ): Promise<SearchWindow | undefined> {
      return (await current())?.window(term, want, after);
    },
  };
}
