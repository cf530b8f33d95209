import { isModuleUnlocked, progressFor } from "../../../contract";
import { createBatchQueue, Refused } from "../../db/batch-queue";
import type { Database } from "../../db/client";
import type { Actor, AuditEventInput, AuditService } from "../../platform";
import { createPendingWrites } from "../../platform";
import type { CourseContext } from "./completion-steps";
import {
  courseUnavailable,
  moduleLocked,
  moduleNotInCourse,
  notEnrolled,
} from "./enrollments.errors";
import { createEnrollmentsRepository, enrollmentKey } from "./enrollments.repository";
import type { EnrollmentRow } from "./enrollments.table";
import type { UnitOfWork, WorkUnit } from "./unit-of-work";

/** The most completions written in one transaction. */
const MAX_BATCH = 100;
/** Batches written at once: while one commits, the next locks and checks. */
const WRITERS = 2;

interface Waiting {
  userId: string;
  courseId: string;
  moduleId: string;
  /** The course's credit context, read before the transaction (PGlite has one connection). */
  context: CourseContext | undefined;
  resolve(done: Recorded): void;
  reject(error: unknown): void;
}

/** A completion as recorded: the enrollment as it stands after it, and its completed modules. */
export interface Recorded {
  enrollment: EnrollmentRow;
  completedIds: string[];
}

/** What one module's completion writes, once every rule allowed it. */
interface Planned {
  w: Waiting;
  unit: WorkUnit;
  /** Absent when the module was already complete: asking again changes nothing. */
  write?: { progress: number; event: AuditEventInput };
}

const learner = (userId: string): Actor => ({ id: userId, role: "learner" });

/**
 * Records module completions ('Mark as Complete', POST /api/progress/update), the busiest
 * credit write. A transaction per completion makes round trips and durable commits the
 * limit, so completions that arrive while a write is under way wait for it and then go
 * together, as heartbeats do (watching/beat-recorder.ts). One transaction locks every
 * enrollment of the batch in one statement and reads their completions in another, checks
 * each completion under the same rules as any step (the course online, the steps before the
 * modules done, each step's rule on the module), then writes all completions, all progress
 * and all audit events in three statements, and settles each enrollment whose modules are
 * now all done (its certificate included). One completion per learner and course goes in a
 * batch, so each sees what the previous one left. A completion the rules refuse rolls its
 * batch back; the others are written again without it, and it is tried alone so its learner
 * gets the exact refusal. Any database error in a batch sends each completion through on
 * its own.
 */
export function createCompletionRecorder(deps: {
  db: Database;
  audit: Pick<AuditService, "appendMany">;
  work: UnitOfWork;
  announce(userId: string): void;
}) {
  const { db, work } = deps;

  /** Checks one completion on its locked enrollment; throws its refusal. */
  async function plan(unit: WorkUnit, w: Waiting): Promise<Planned> {
    const { tx, enrollment, context, completions } = unit;
    const order = context.modules;
    await unit.assertInOrder();
    if (!order.includes(w.moduleId)) throw moduleNotInCourse();
    if (completions.has(w.moduleId)) return { w, unit };
    const completed = order.filter((id) => completions.has(id));
    if (!isModuleUnlocked(order, w.moduleId, completed)) throw moduleLocked();
    for (const step of work.steps) {
      const settings = context.settings.get(step);
      const input = { enrollment, course: context.course, moduleId: w.moduleId, settings };
      await step.checkModule?.(tx, input);
    }
    // A completed course stays complete (100 %) when a module is added later.
    const progress = enrollment.isCompleted ? 100 : progressFor(completed.length + 1, order.length);
    const event: AuditEventInput = {
      type: "module.completed",
      actor: learner(w.userId),
      learnerId: w.userId,
      courseId: w.courseId,
      moduleId: w.moduleId,
      details: { enrollmentId: enrollment.id, completedAt: unit.now.toISOString(), progress },
    };
    return { w, unit, write: { progress, event } };
  }

  /** Writes `batch` in one transaction, or throws Refused naming the refused completions. */
  function recordBatch(batch: Waiting[]): Promise<Recorded[]> {
    return db.transaction(async (tx) => {
      const txRepo = createEnrollmentsRepository(tx);
      const locked = await txRepo.lockManyWithCompletions(batch);
      // The courses of the enrollments found: an unknown course has no version to hold.
      const versions = await txRepo.lockRulesVersions(
        [...locked.values()].map((row) => row.courseId),
      );
      const pending = createPendingWrites(deps.audit);
      const planned: Planned[] = [];
      const refused = new Map<Waiting, unknown>();
      for (const w of batch) {
        try {
          const row = locked.get(enrollmentKey(w));
          if (!row) throw notEnrolled();
          if (!w.context) throw courseUnavailable();
          work.assertCurrent(w.context, versions);
          const unit = work.unitFor(
            tx,
            row,
            w.context,
            { step: "modules", actor: learner(w.userId) },
            pending,
          );
          planned.push(await plan(unit, w));
        } catch (error) {
          // Alone, the refusal is its learner's answer; in a batch, the rest go again.
          if (batch.length === 1) throw error;
          refused.set(w, error);
        }
      }
      if (refused.size) throw new Refused(new Set(refused.keys()));
      const writes = planned.filter((p) => p.write);
      const rows = new Map(
        (
          await txRepo.recordCompletions(
            writes.map((p) => ({
              enrollmentId: p.unit.enrollment.id,
              moduleId: p.w.moduleId,
              completedAt: p.unit.now,
              progress: p.write!.progress,
            })),
          )
        ).map((row) => [row.id, row]),
      );
      for (const p of writes) pending.audit(p.write!.event);
      await pending.flush(tx);
      const recorded: Recorded[] = [];
      for (const p of planned) {
        const { unit } = p;
        if (p.write) {
          unit.completions.set(p.w.moduleId, unit.now);
          unit.enrollment = rows.get(unit.enrollment.id) ?? unit.enrollment;
        }
        const settled = await work.settleUnit(unit, learner(p.w.userId));
        recorded.push({
          enrollment: settled ?? unit.enrollment,
          completedIds: [...unit.completions.keys()],
        });
      }
      await pending.flush(tx);
      return recorded;
    });
  }

  const batches = createBatchQueue<Waiting, Recorded>({
    keyOf: enrollmentKey,
    maxBatch: MAX_BATCH,
    writers: WRITERS,
    writeBatch: recordBatch,
  });

  return {
    /** Records a module's completion for a learner; answers once it is committed. */
    async record(input: { userId: string; courseId: string; moduleId: string }) {
      const done = await work.onCurrentRules(
        input.courseId,
        (context) =>
          new Promise<Recorded>((resolve, reject) => {
            batches.push({ ...input, context, resolve, reject });
          }),
      );
      deps.announce(input.userId);
      return done;
    },
  };
}
