import { createBatchQueue, Refused } from "../../db/batch-queue";
import type { Database } from "../../db/client";
import { databaseRefusal, FOREIGN_KEY_VIOLATION } from "../../db/refusals";
import { applyBeat, type Beat, type BeatWrite } from "./beat";
import { notEnrolled } from "./watching.errors";
import { createWatchingRepository, watchKeyOf } from "./watching.repository";
import type { ModuleWatchRow } from "./watching.table";

/** The most heartbeats written in one transaction. */
const MAX_BATCH = 200;
/**
 * Batches written at once: while one commits, the next locks and reads, so the database
 * always has a batch under way.
 */
const WRITERS = 2;

interface Waiting {
  beat: Beat;
  resolve(row: ModuleWatchRow): void;
  reject(error: unknown): void;
}

const watchKey = (b: Beat) =>
  watchKeyOf({ userId: b.userId, courseId: b.course.id, moduleId: b.module.id });

/** The enrollment was removed while the heartbeat ran: its foreign key refuses the rows. */
async function refuseIfUnenrolled<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (databaseRefusal(error).code === FOREIGN_KEY_VIOLATION) throw notEnrolled();
    throw error;
  }
}

/**
 * Writes heartbeats. Learners watching are the busiest writers of a verified course (one
 * beat every few seconds each), and a transaction per beat makes the database's round trips
 * and commits, not the work, the limit. So beats that arrive while a write is under way wait
 * for it and then go together: one transaction locks all their learners' clocks, reads all
 * their module records, applies the rule to each (beat.ts) and writes them back, whatever
 * their number. A beat alone is written at once, as a batch of one. One beat per learner
 * goes in a batch (a later one waits for the next), so each sees the clock the learner's
 * previous beat left, whatever its course. A beat the rule refuses rolls its batch back; the
 * others are written again without it, and it is tried alone so its learner gets the exact
 * refusal. Any database error in a batch (an enrollment removed meanwhile, a deadlock with
 * another instance) sends each beat through alone, which answers each on its own.
 */
export function createBeatRecorder({ db, now }: { db: Database; now: () => Date }) {
  /** Writes `batch` in one transaction, or throws Refused naming the beats the rule refused. */
  async function recordBatch(batch: Waiting[]): Promise<ModuleWatchRow[]> {
    return db.transaction(async (tx) => {
      const repo = createWatchingRepository(tx);
      const at = now();
      const clocks = await repo.lockClocks(
        batch.map((w) => w.beat.userId),
        at,
      );
      const stored = await repo.findWatches(
        batch.map(({ beat }) => ({
          userId: beat.userId,
          courseId: beat.course.id,
          moduleId: beat.module.id,
        })),
      );
      const writes: BeatWrite[] = [];
      const refused = new Set<Waiting>();
      for (const w of batch) {
        try {
          writes.push(
            applyBeat(w.beat, clocks.get(w.beat.userId)!, stored.get(watchKey(w.beat)), at),
          );
        } catch (error) {
          // Alone, the refusal is its learner's answer; in a batch, the rest go again.
          if (batch.length === 1) throw error;
          refused.add(w);
        }
      }
      if (refused.size) throw new Refused(refused);
      return repo.saveBeats(writes);
    });
  }

  const batches = createBatchQueue<Waiting, ModuleWatchRow>({
    keyOf: (w) => w.beat.userId,
    maxBatch: MAX_BATCH,
    writers: WRITERS,
    writeBatch: recordBatch,
    writeOne: (w) => refuseIfUnenrolled(async () => (await recordBatch([w]))[0]!),
  });

  return {
    /** Records one heartbeat; answers the module's record as stored. */
    record(beat: Beat): Promise<ModuleWatchRow> {
      return new Promise((resolve, reject) => {
        batches.push({ beat, resolve, reject });
      });
    },
  };
}
