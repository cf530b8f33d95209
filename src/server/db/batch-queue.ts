/**
 * Writes that arrive while a batch is being written wait for it and then go together in
 * the next one (heartbeats, module completions): one transaction for many requests, whose
 * round trips and durable commit would otherwise be the limit. At most `writers` batches are
 * under way at once, so while one commits the next locks and reads. One item per key goes in
 * a batch, and a key with an item in a batch under way waits for it, so each item sees what
 * the previous one of its key left.
 */
export function createBatchQueue<W>(options: {
  keyOf(item: W): string;
  maxBatch: number;
  writers: number;
  /** Writes a batch and answers every item in it; never throws. */
  write(batch: W[]): Promise<void>;
}) {
  const queue: W[] = [];
  /** Keys with an item in a batch under way: their next item waits for it. */
  const busy = new Set<string>();
  let writers = 0;

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
          await options.write(batch);
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
