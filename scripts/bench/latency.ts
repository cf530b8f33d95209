/** Exact latency percentiles: every response's time is kept (autocannon reports no p95). */
import type { StepResult } from "./types";

export function percentile(sorted: Float64Array, p: number) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Every response's latency, for exact percentiles (autocannon reports no p95). */
export function latencyLog() {
  let values = new Float64Array(1 << 16);
  let count = 0;
  const statusCodes: Record<string, number> = {};
  let bytes = 0;
  return {
    add(ms: number, status?: number, responseBytes = 0) {
      if (count === values.length) {
        const bigger = new Float64Array(values.length * 2);
        bigger.set(values);
        values = bigger;
      }
      values[count++] = ms;
      bytes += responseBytes;
      if (status !== undefined) statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    },
    sorted: () => values.subarray(0, count).sort(),
    step(seconds: number): StepResult {
      const sorted = values.subarray(0, count).sort();
      return {
        requests: count,
        rps: count / seconds,
        bytesPerSecond: bytes / seconds,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: sorted.length ? sorted[sorted.length - 1]! : 0,
        non2xx: Object.entries(statusCodes)
          .filter(([code]) => !code.startsWith("2"))
          .reduce((sum, [, n]) => sum + n, 0),
        statusCodes,
      };
    },
  };
}
