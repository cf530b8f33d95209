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

/** A learner taking the final exam over and over, with the attempt it will submit next. */
export interface ExamItem {
  headers: Record<string, string>;
  courseId: string;
  /** The attempt this learner started and has not submitted yet. */
  attemptId?: string;
  answers?: { questionId: string; optionIds: string[] }[];
}

/**
 * A learner watching one module's video at normal speed: where the player is and when it
 * last reported, so each heartbeat reports exactly the media time that played since.
 */
export interface HeartbeatItem {
  headers: Record<string, string>;
  courseId: string;
  moduleId: string;
  /** The video's length in seconds, as the player reports it (it must fit the module). */
  duration: number;
  /** Media seconds played so far in this viewing. */
  position?: number;
  /** When the previous heartbeat was sent (ms, the load process's monotonic clock). */
  lastBeatAt?: number;
}

/** A learner of the capacity scenario's crowd: its session and the course it works through. */
export interface CrowdLearner {
  headers: Record<string, string>;
  userId: string;
  courseId: string;
  /** The course's modules not yet complete, in unlock order, and their stated minutes. */
  modules: string[];
  minutes: number[];
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
        /** Learners watching at normal speed, each one heartbeat in flight at a time. */
        kind: "heartbeat";
        items: HeartbeatItem[];
        /**
         * Most heartbeats a second over all learners: keeps each learner's session within
         * the server's heartbeat limit for the whole scenario.
         */
        maxRate: number;
      }
    | {
        /** Start an attempt, then submit it with a wrong option for every question. */
        kind: "exam";
        items: ExamItem[];
        /** A wrong option of each question of the final pool, by question id. */
        wrongOption: Record<string, string>;
      }
    | {
        /** `requests` are measured while `flood` keeps `floodConnections` more busy. */
        kind: "flood";
        requests: RequestSpec[];
        flood: RequestSpec[];
        floodConnections: number;
      }
    | {
        /**
         * The capacity scenario: `learners[0..n)` for each n of `steps`, every one watching
         * (a heartbeat each 15 s) and now and then opening its dashboard or course page or
         * completing a module; `examTakers` take the final exam at a rate that grows with n;
         * `admins` administrators browse `adminRequests` with a second's pause between pages.
         * `durationSeconds` is measured per step, after `warmupSeconds` at the new size.
         */
        kind: "crowd";
        serverPid: number | null;
        steps: number[];
        learners: CrowdLearner[];
        examTakers: ExamItem[];
        wrongOption: Record<string, string>;
        admins: number;
        adminRequests: RequestSpec[];
        /** A step is sustained when every learner route's p95 is at most this, with no error. */
        p95LimitMs: number;
      }
    | {
        kind: "range";
        path: string;
        headers: Record<string, string>;
        fileBytes: number;
        rangeBytes: number;
      }
  );

/** Latencies in milliseconds, and the rate, of one kind of request in a mixed scenario. */
export interface StepResult {
  requests: number;
  rps: number;
  bytesPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  non2xx: number;
  statusCodes: Record<string, number | undefined>;
}

/** Capacity scenario: administrators' request kinds start with this; they are not held to its limit. */
export const ADMIN_KIND = "admin";
export const isLearnerKind = (kind: string) => !kind.startsWith(ADMIN_KIND);

/** One size of the capacity scenario's crowd. */
export interface CrowdStep {
  learners: number;
  /** By request kind; learner routes and administrators' pages. */
  kinds: Record<string, StepResult>;
  /** Heartbeats due while the learner's previous one was still unanswered. */
  lateBeats: number;
  /** Connection errors, and requests still unanswered 30 s after the step. */
  errors: number;
  serverCpu: number;
  clientCpu: number;
  /** The crowd's own event loop's delay in the measured window (its stalls, not the portal's). */
  clientDelayMs: { p99: number; max: number };
  machineBusy: number;
  /** Why the step was not sustained; absent when it was. */
  failed?: string;
}

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
  /**
   * exam scenario: starts and submissions measured apart; starts that made a new attempt,
   * starts answered with the attempt already in progress, and refused calls.
   */
  exam?: {
    start: StepResult;
    submit: StepResult;
    created: number;
    resumed: number;
    failed: number;
  };
  /** heartbeat scenario: heartbeats the server refused (none at normal pace). */
  heartbeat?: { refused: number };
  /** capacity scenario: each size tried, and the largest sustained (0: none). */
  crowd?: { steps: CrowdStep[]; sustained: number };
  /** flood scenario: what the flooding connections were answered (429s expected). */
  flood?: { requests: number; statusCodes: Record<string, number | undefined> };
}
