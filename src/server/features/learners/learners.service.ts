import type { LearnerSummary } from "../../../contract";
import type { Database } from "../../db/client";
import { decodeCursor, pageOf } from "../../db/cursor";
import { toUser } from "../auth/auth.mapper";
import { createLearnersRepository } from "./learners.repository";

/** The administrators' view of learners: pages with each learner's enrollment figures. */
export function createLearnersService({ db }: { db: Database }) {
  const repo = createLearnersRepository(db);

  return {
    async page(input: { limit: number; cursor?: string; q?: string }) {
      const rows = await repo.page({
        limit: input.limit + 1,
        after: decodeCursor(input.cursor),
        q: input.q || undefined,
      });
      const { items, nextCursor } = pageOf(rows, input.limit);
      const enrolled = await repo.enrollmentsOf(items.map((u) => u.id));
      // Grouped once (issue 7): filtering every row for every learner was quadratic.
      const byUser = new Map<string, typeof enrolled>();
      for (const e of enrolled) {
        const list = byUser.get(e.userId);
        if (list) list.push(e);
        else byUser.set(e.userId, [e]);
      }
      const learners: LearnerSummary[] = items.map((user) => {
        const mine = byUser.get(user.id) ?? [];
        const total = mine.reduce((sum, e) => sum + e.progress, 0);
        return {
          ...toUser(user),
          enrolledCount: mine.length,
          inProgressCount: mine.filter((e) => !e.isCompleted && e.progress > 0).length,
          completedCount: mine.filter((e) => e.isCompleted).length,
          averageProgress: mine.length ? Math.round(total / mine.length) : 0,
          courses: mine.map(({ userId: _userId, ...course }) => course),
        };
      });
      return { items: learners, nextCursor };
    },
  };
}

export type LearnersService = ReturnType<typeof createLearnersService>;
