import { progressFor } from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { AuditService } from "../../platform";
import { createPendingWrites } from "../../platform";
import type { CourseContext } from "./completion-steps";
import { createEnrollmentsRepository } from "./enrollments.repository";
import { RulesChanged, type UnitOfWork } from "./unit-of-work";

/** Open enrollments read per page. */
const PAGE = 1000;
/**
 * Of a page, those the edit changes are locked and recomputed this many at a time, in id
 * order: a learner taking a step meanwhile waits for at most one such transaction.
 */
const LOCKED = 200;

/**
 * Brings a course's open enrollments up to date after an edit of what completes it
 * (ARCHITECTURE section 6): progress follows the current modules, and an enrollment whose
 * every required step is now done completes through the unit of work's gate, with its credit
 * facts and certificate, exactly once. Completed enrollments stay completed. The course is
 * never locked: each page's changed enrollments are locked in a short transaction of their
 * own, so learners keep taking steps meanwhile. Each edit records its request in its own
 * transaction; a recompute clears it when done, so one cut short is finished at start.
 */
export function createCourseRecompute(deps: {
  db: Database;
  audit: Pick<AuditService, "appendMany">;
  work: UnitOfWork;
  announce(userId: string): void;
}) {
  const { db, work } = deps;
  const repo = createEnrollmentsRepository(db);

  /** Recomputes one page's changed enrollments in one transaction; the learners changed. */
  async function recomputeMany(ids: string[], context: CourseContext) {
    return db.transaction(async (tx) => {
      const txRepo = createEnrollmentsRepository(tx);
      const pending = createPendingWrites(deps.audit);
      const changed = new Set<string>();
      const locked = await txRepo.lockByIdsWithCompletions(ids);
      // Another edit since this recompute read the course: the recompute it asked for
      // takes over, on the course as it now stands.
      work.assertCurrent(context, await txRepo.lockRulesVersions([context.course.id]));
      const open = locked.filter((row) => !row.isCompleted);
      const progress = open.map((row) => ({
        id: row.id,
        progress: progressFor(
          context.modules.filter((id) => row.completions.has(id)).length,
          context.modules.length,
        ),
      }));
      const moved = progress.filter((p, i) => p.progress !== open[i]!.progress);
      const written = new Map((await txRepo.setProgressMany(moved)).map((r) => [r.id, r]));
      for (const row of open) {
        const { completions, ...current } = row;
        const enrollment = written.get(row.id) ?? current;
        if (written.has(row.id)) changed.add(row.userId);
        const unit = work.unitFor(
          tx,
          { ...enrollment, completions },
          context,
          { actor: null },
          pending,
        );
        if (!unit.modulesDone()) continue;
        if (await work.settleUnit(unit, null)) changed.add(row.userId);
      }
      await pending.flush(tx);
      return changed;
    });
  }

  /**
   * Recomputes every open enrollment of the course, page by page; false when another edit
   * changed the course's rules meanwhile, and left the rest to the recompute it asked for.
   */
  async function recomputeCourse(courseId: string): Promise<boolean> {
    const context = await work.contexts.fresh(courseId);
    if (!context) return true;
    let after = "";
    for (;;) {
      const page = await repo.openPage(courseId, context.modules, after, PAGE);
      if (!page.length) return true;
      after = page[page.length - 1]!.id;
      const all = context.modules.length;
      // Progress moved, or every module done: the gate may complete it now.
      const touched = page.filter(
        (e) => progressFor(e.done, all) !== e.progress || (all > 0 && e.done >= all),
      );
      for (let i = 0; i < touched.length; i += LOCKED) {
        const ids = touched.slice(i, i + LOCKED).map((e) => e.id);
        try {
          for (const userId of await recomputeMany(ids, context)) deps.announce(userId);
        } catch (error) {
          if (error instanceof RulesChanged) return false;
          throw error;
        }
      }
      if (page.length < PAGE) return true;
    }
  }

  return {
    /** Asks, in the edit's transaction, for the course to be recomputed once it commits. */
    request: (tx: Executor, courseId: string) =>
      createEnrollmentsRepository(tx).requestRecompute(courseId),

    /** Runs every recompute asked for and not yet done (the one just asked for included). */
    async runPending(): Promise<void> {
      for (const { courseId, requests } of await repo.pendingRecomputes()) {
        if (await recomputeCourse(courseId)) await repo.clearRecompute(courseId, requests);
      }
    },
  };
}
