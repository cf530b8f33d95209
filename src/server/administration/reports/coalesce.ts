/**
 * Shares one run of `load` between concurrent callers without serving stale data:
 * without it, 50 administrators opening the reports cost 50 identical aggregate queries and 50
 * serializations of 1,000 courses). A caller that arrives while a run is in progress does
 * not join it (that run may have read the database before the caller's request, and miss a
 * change the caller has just made); it waits for the next run, which starts after the current
 * one ends and so after the caller arrived. Every answer therefore reflects every write
 * committed before its request, and any number of simultaneous callers cost at most two runs.
 */
export function coalesce<T>(load: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const start = () => {
    const run = load().finally(() => {
      if (running === run) running = null;
    });
    running = run;
    return run;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}
