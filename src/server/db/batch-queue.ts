/** A batch some of whose items their own rules refused: rolled back, to be written again without them. */
export class Refused<W> extends Error {
  constructor(readonly items: Set<W>) {
    super("items of a batch refused");
  }
}

/** An item waiting to be written, answered once its batch commits. */
export interface Queued<R> {
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Writes that arrive while a batch is being written wait for it and then go together in
 * the next one (heartbeats, module completions, learners' steps): one transaction for many
 * requests, whose round trips and durable commit would otherwise be the limit. At most
 * `writers` batches are under way at once, so while one commits the next locks and reads.
 * One item per key goes in a batch, and a key with an item in a batch under way waits for
 * it, so each item sees what the previous one of its key left.
 *
 * `writeBatch` writes a batch in one transaction and answers its results in order, or throws
 * Refused naming the items its rules refused: the others are written again without them,
 * and each refused item is written alone (`writeOne`), so it gets its exact refusal. Any
 * other error (a deadlock with another instance, an enrollment removed meanwhile) sends each
 * item through alone, which answers each on its own.
 */
export function createBatchQueue<W extends Queued<R>, R>(options: {
  keyOf(item: W): string;
  maxBatch: number;
  writers: number;
  writeBatch(batch: W[]): Promise<R[]>;
  /** An item alone; by default a batch of one. */
  writeOne?(item: W): Promise<R>;
}) {
  const queue: W[] = [];
  /** Keys with an item in a batch under way: their next item waits for it. */
  const busy = new Set<string>();
  let writers = 0;

  const writeOne = options.writeOne ?? (async (item: W) => (await options.writeBatch([item]))[0]!);
  const alone = (item: W) => writeOne(item).then(item.resolve, item.reject);

  async function settle(batch: W[]): Promise<void> {
    if (batch.length === 1) return alone(batch[0]!);
    try {
      const results = await options.writeBatch(batch);
      for (const [i, item] of batch.entries()) item.resolve(results[i]!);
    } catch (error) {
      if (error instanceof Refused) {
        const refused = error.items as Set<W>;
        const rest = batch.filter((item) => !refused.has(item));
        if (rest.length) await settle(rest);
        for (const item of refused) await alone(item);
        return;
      }
      for (const item of batch) await alone(item);
    }
  }

  /** Waiting items in arrival order, one per key not already under way. */
  function takeBatch(): W[] {
    const batch: W[] = [];
    for (let i = 0; i < queue.length && batch.length < options.maxBatch; ) {
      const key = options.keyOf(queue[i]!);
      if (busy.has(key)) {
        i++;
        continue;
      }
      busy.add(key);
      batch.push(queue.splice(i, 1)[0]!);
    }
    return batch;
  }

  /**
   * Writes batches until none can be taken. An item held back behind its key's batch is
   * taken by the writer of that batch, which frees the key and looks again.
   */
  async function run() {
    writers++;
    try {
      for (let batch = takeBatch(); batch.length; batch = takeBatch()) {
        try {
          await settle(batch);
        } finally {
          for (const item of batch) busy.delete(options.keyOf(item));
        }
      }
    } finally {
      writers--;
    }
  }

  return {
    push(item: W): void {
      queue.push(item);
      if (writers < options.writers) void run();
    },
  };
}
