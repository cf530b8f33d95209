/** Shapes shared by the benchmark orchestrator (run.ts) and the load process (load.ts). */

export interface RequestSpec {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One enrollment's remaining modules, in unlock order, with its learner's session. */
export interface ProgressItem {
  headers: Record<string, string>;
  userId: string;
  courseId: string;
  modules: string[];
  /** The last module this run completed (repeated once every queue is empty). */
  done?: string;
}

interface BaseSpec {
  url: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export type LoadSpec = BaseSpec &
  (
    | { kind: "rotate"; requests: RequestSpec[] }
    | { kind: "progress"; items: ProgressItem[] }
    | {
        /** `requests` are measured while `flood` keeps `floodConnections` more busy. */
        kind: "flood";
        requests: RequestSpec[];
        flood: RequestSpec[];
        floodConnections: number;
      }
    | {
        kind: "range";
        path: string;
        headers: Record<string, string>;
        fileBytes: number;
        rangeBytes: number;
      }
  );

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  bytesPerSecond: number;
  /** Latencies in milliseconds. */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number | undefined>;
  /** The load process's own CPU use while measuring, in cores. */
  clientCpu: number;
  /** progress scenario: fresh completions, idempotent repeats, and refused calls. */
  progress?: { fresh: number; repeats: number; failed: number };
  /** flood scenario: what the flooding connections were answered (429s expected). */
  flood?: { requests: number; statusCodes: Record<string, number | undefined> };
}
