import type { Database } from "../../db/client";
import { decodeCursor, pageOf } from "../../db/cursor";
import { createLearnersRepository } from "./learners.repository";

/** The administrators' view of learners: pages with each learner's enrollment figures. */
export function createLearnersService({ db }: { db: Database }) {
  const repo = createLearnersRepository(db);

  return {
    /**
     * A page of learners as the JSON text of a `LearnerSummary[]` (one query, the
     * JSON built by PostgreSQL; see learners.repository.ts), and the next page's cursor.
     */
    async page(input: { limit: number; cursor?: string; q?: string }) {
      const rows = await repo.page({
        limit: input.limit + 1,
        after: decodeCursor(input.cursor),
        q: input.q || undefined,
      });
      const { items, nextCursor } = pageOf(rows, input.limit);
      return { json: `[${items.map((row) => row.json).join(",")}]`, nextCursor };
    },
  };
}

export type LearnersService = ReturnType<typeof createLearnersService>;
