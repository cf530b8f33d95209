/**
 * The capacity scenario's load: a crowd of learners at a realistic pace, grown step by step
 * until the portal no longer answers every learner route within the limit.
 *
 * Open loop: requests go out when a learner would send them, whether or not earlier ones
 * were answered, and each latency is counted from that moment (a slow server cannot slow
 * the crowd down and hide its own queue). Per learner:
 * - a heartbeat every 15 s, reporting the 15 s that played, from a random phase;
 * - with one heartbeat in 20 (every 5 minutes), the dashboard (`/api/auth/me` and its
 *   enrollments), and with another one in 20 the course page (the course and its watching);
 * - with one heartbeat in 60 (a module every 15 minutes), completing the module it
 *   watches, then watching the next one;
 * - final-exam attempts, one an hour per learner, from the signed-in exam takers.
 * Administrators browse the learners list, search, reports and enrollments with a second
 * between pages. Each step holds the new size for the warm-up, then measures one heartbeat
 * cycle or more; requests count in the step they were sent in.
 */
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { holdAttempt } from "./exam";
import { latencyLog } from "./latency";
import { cpuSeconds, machineTicks } from "./processes";
import {
  ADMIN_KIND,
  type CrowdLearner,
  type CrowdStep,
  type ExamItem,
  isLearnerKind,
  type LoadSpec,
  type RequestSpec,
} from "./types";

type CrowdSpec = Extract<LoadSpec, { kind: "crowd" }>;

const BEAT_MS = 15_000;
const DASHBOARD_EVERY = 20;
const COURSE_PAGE_EVERY = 20;
const COMPLETE_EVERY = 60;
const EXAM_STARTS_PER_LEARNER_SECOND = 1 / 3600;
const ADMIN_PAUSE_MS = 1000;
const TICK_MS = 10;
/** Requests of a step still unanswered this long after it count as errors. */
const DRAIN_MS = 30_000;

interface Watcher {
  learner: CrowdLearner;
  phase: number;
  module: number;
  position: number;
  lastBeatAt?: number;
  beating: boolean;
  completing: boolean;
}

type Log = ReturnType<typeof latencyLog>;

interface Window {
  logs: Map<string, Log>;
  /** Requests sent in the window and not answered yet, by kind. */
  pending: Map<string, number>;
  /** Connection errors, by kind. */
  errors: Map<string, number>;
  /** Refusals by kind, status and the error code the portal gave: what was refused, and why. */
  refusals: Map<string, number>;
  lateBeats: number;
  /** Called when the last pending request is answered, once the window has closed. */
  onIdle?: () => void;
}

const pendingCount = (w: Window) => [...w.pending.values()].reduce((a, b) => a + b, 0);

/** The `code` of an error answer ({ message, code }), or "no code". */
function errorCode(body: string): string {
  try {
    return String((JSON.parse(body) as { code?: unknown }).code ?? "no code");
  } catch {
    return "no code";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runCrowd(
  spec: CrowdSpec,
): Promise<{ steps: CrowdStep[]; sustained: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const target = new URL(spec.url);
  const started = performance.now();
  const watchers: Watcher[] = spec.learners.map((learner) => ({
    learner,
    phase: Math.random() * BEAT_MS,
    module: 0,
    position: 0,
    beating: false,
    completing: false,
  }));
  /** The current step's window, or null during a warm-up. */
  let measuring: Window | null = null;

  const newWindow = (): Window => ({
    logs: new Map(),
    pending: new Map(),
    errors: new Map(),
    refusals: new Map(),
    lateBeats: 0,
  });

  function send(
    kind: string,
    r: RequestSpec,
    onAnswer?: (status: number, body: string) => void,
  ): void {
    const sentAt = performance.now();
    const w = measuring;
    if (w) w.pending.set(kind, (w.pending.get(kind) ?? 0) + 1);
    const body = r.body;
    const headers = body
      ? {
          ...r.headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        }
      : r.headers;
    const settle = (status: number, text: string, bytes: number) => {
      if (w) {
        if (status === 0) w.errors.set(kind, (w.errors.get(kind) ?? 0) + 1);
        else {
          const log = w.logs.get(kind) ?? latencyLog();
          w.logs.set(kind, log);
          log.add(performance.now() - sentAt, status, bytes);
          if (status >= 400) {
            const key = `${kind} ${status} ${errorCode(text)}`;
            w.refusals.set(key, (w.refusals.get(key) ?? 0) + 1);
          }
        }
        w.pending.set(kind, w.pending.get(kind)! - 1);
        if (w.onIdle && pendingCount(w) === 0) w.onIdle();
      }
      onAnswer?.(status, text);
    };
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: r.method,
        path: r.path,
        headers,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        // A refusal's body is kept too: its error code says which rule refused it.
        const keep = onAnswer !== undefined || (res.statusCode ?? 0) >= 400;
        res.on("data", (c: Buffer) => {
          bytes += c.length;
          if (keep) chunks.push(c);
        });
        res.on("end", () =>
          settle(res.statusCode ?? 0, keep ? Buffer.concat(chunks).toString() : "", bytes),
        );
      },
    );
    req.on("error", () => settle(0, "", 0));
    req.end(body);
  }

  function beat(w: Watcher, now: number) {
    if (w.beating) {
      if (measuring) measuring.lateBeats++;
      return;
    }
    const { learner } = w;
    const duration = learner.minutes[w.module]! * 60;
    const elapsed = w.lastBeatAt === undefined ? 0 : (now - w.lastBeatAt) / 1000;
    let start = w.position;
    if (start >= duration) start = 0;
    const end = Math.min(start + elapsed, duration);
    w.position = end;
    w.lastBeatAt = now;
    w.beating = true;
    send(
      "POST /api/progress/heartbeat",
      {
        method: "POST",
        path: "/api/progress/heartbeat",
        headers: w.learner.headers,
        body: JSON.stringify({
          courseId: learner.courseId,
          moduleId: learner.modules[w.module],
          intervals: end > start ? [[start, end]] : [],
          position: end,
          duration,
          playbackRate: 1,
          visible: true,
        }),
      },
      () => {
        w.beating = false;
      },
    );
    const get = (path: string): RequestSpec => ({
      method: "GET",
      path,
      headers: w.learner.headers,
    });
    const enc = encodeURIComponent;
    const roll = Math.random();
    if (roll < 1 / DASHBOARD_EVERY) {
      send("GET /api/auth/me", get("/api/auth/me"));
      send("GET /api/enrollments/user/{id}", get(`/api/enrollments/user/${enc(learner.userId)}`));
    } else if (roll < 1 / DASHBOARD_EVERY + 1 / COURSE_PAGE_EVERY) {
      send("GET /api/courses/{id}", get(`/api/courses/${enc(learner.courseId)}`));
      send(
        "GET /api/progress/watch/{courseId}",
        get(`/api/progress/watch/${enc(learner.courseId)}`),
      );
    }
    if (
      Math.random() < 1 / COMPLETE_EVERY &&
      !w.completing &&
      w.module < learner.modules.length - 1
    ) {
      w.completing = true;
      send(
        "POST /api/progress/update",
        {
          method: "POST",
          path: "/api/progress/update",
          headers: w.learner.headers,
          body: JSON.stringify({
            userId: learner.userId,
            courseId: learner.courseId,
            moduleId: learner.modules[w.module],
          }),
        },
        (status) => {
          w.completing = false;
          // Done: the next module is unlocked; its player starts from the beginning.
          if (status === 200) {
            w.module++;
            w.position = 0;
            w.lastBeatAt = undefined;
          }
        },
      );
    }
  }

  // Exam takers: a FIFO of those with nothing in flight; each starts, then submits.
  const takers: ExamItem[] = [...spec.examTakers];
  let examCredit = 0;
  function examTurn() {
    const item = takers.shift();
    if (!item) return;
    const enc = encodeURIComponent;
    if (item.attemptId) {
      send(
        "POST /api/exam-attempts/{id}/submit",
        {
          method: "POST",
          path: `/api/exam-attempts/${enc(item.attemptId)}/submit`,
          headers: item.headers,
          body: JSON.stringify({ answers: item.answers ?? [] }),
        },
        () => {
          item.attemptId = undefined;
          item.answers = undefined;
          takers.push(item);
        },
      );
      return;
    }
    send(
      "POST /api/courses/{id}/exam/attempts",
      {
        method: "POST",
        path: `/api/courses/${enc(item.courseId)}/exam/attempts`,
        headers: item.headers,
      },
      (status, body) => {
        if (status === 200 || status === 201) {
          holdAttempt(item, body, spec.wrongOption);
        }
        takers.push(item);
      },
    );
  }

  let running = true;
  let nextAdmin = 0;
  const adminLoop = async () => {
    while (running) {
      const r = spec.adminRequests[nextAdmin++ % spec.adminRequests.length]!;
      await new Promise<void>((resolve) =>
        send(`${ADMIN_KIND} ${r.path.split("?")[0]}${r.path.includes("q=") ? "?q=" : ""}`, r, () =>
          resolve(),
        ),
      );
      await sleep(ADMIN_PAUSE_MS);
    }
  };

  // Heartbeats: the active learners sorted by phase; each tick sends those whose phase
  // (within the 15 s cycle) fell in the time since the previous tick.
  let active: Watcher[] = [];
  const activate = (n: number) => {
    active = watchers.slice(0, n).sort((a, b) => a.phase - b.phase);
  };
  const firstAtOrAfter = (phase: number) => {
    let lo = 0;
    let hi = active.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (active[mid]!.phase < phase) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let lastTick = performance.now();
  const tick = () => {
    const now = performance.now();
    const from = (lastTick - started) % BEAT_MS;
    const to = (now - started) % BEAT_MS;
    const due =
      to >= from
        ? active.slice(firstAtOrAfter(from), firstAtOrAfter(to))
        : [...active.slice(firstAtOrAfter(from)), ...active.slice(0, firstAtOrAfter(to))];
    for (const w of due) beat(w, now);
    examCredit += ((now - lastTick) / 1000) * active.length * EXAM_STARTS_PER_LEARNER_SECOND * 2;
    while (examCredit >= 1) {
      examCredit--;
      examTurn();
    }
    lastTick = now;
  };
  const ticker = setInterval(tick, TICK_MS);
  const admins = Array.from({ length: spec.admins }, adminLoop);

  const steps: CrowdStep[] = [];
  let sustained = 0;
  for (const n of spec.steps) {
    if (n > watchers.length) break;
    activate(n);
    measuring = null;
    process.stdout.write(`STEP ${n} warm-up\n`);
    await sleep(spec.warmupSeconds * 1000);
    const w = newWindow();
    measuring = w;
    const cpu0 = spec.serverPid ? cpuSeconds(spec.serverPid) : 0;
    const machine0 = machineTicks();
    const client0 = process.cpuUsage();
    // The crowd's own thread: a response it reads late is measured late, so a stall here
    // (its garbage collection, the machine's other core busy) shows in every kind at once.
    const clientDelay = monitorEventLoopDelay({ resolution: 5 });
    clientDelay.enable();
    const t0 = performance.now();
    await sleep(spec.durationSeconds * 1000);
    measuring = null;
    clientDelay.disable();
    const seconds = (performance.now() - t0) / 1000;
    const serverCpu = spec.serverPid ? (cpuSeconds(spec.serverPid) - cpu0) / seconds : 0;
    const machine1 = machineTicks();
    const client = process.cpuUsage(client0);
    if (pendingCount(w) > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DRAIN_MS);
        w.onIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const kinds = Object.fromEntries(
      [...w.logs].sort(([a], [b]) => a.localeCompare(b)).map(([k, log]) => [k, log.step(seconds)]),
    );
    const unanswered = [...w.pending].filter(([, n]) => n > 0);
    const errors = [...w.errors.values()].reduce((a, b) => a + b, 0) + pendingCount(w);
    const slow = Object.entries(kinds).filter(
      ([k, r]) => isLearnerKind(k) && r.p95 > spec.p95LimitMs,
    );
    const refused = Object.entries(kinds).filter(([, r]) => r.non2xx > 0);
    const failed = [
      ...slow.map(([k, r]) => `${k} p95 ${r.p95.toFixed(0)} ms`),
      ...refused.map(([k, r]) => `${k} answered ${JSON.stringify(r.statusCodes)}`),
      ...[...w.refusals].map(([key, n]) => `${n} × ${key}`),
      ...[...w.errors].map(([k, n]) => `${n} × ${k} failed to connect`),
      ...unanswered.map(([k, n]) => `${n} × ${k} unanswered after ${DRAIN_MS / 1000} s`),
      ...(w.lateBeats
        ? [`${w.lateBeats} heartbeats due before the previous one was answered`]
        : []),
    ].join("; ");
    const step: CrowdStep = {
      learners: n,
      kinds,
      lateBeats: w.lateBeats,
      errors,
      serverCpu,
      clientCpu: (client.user + client.system) / 1e6 / seconds,
      clientDelayMs: {
        p99: clientDelay.percentile(99) / 1e6,
        max: clientDelay.max / 1e6,
      },
      machineBusy: (machine1.busy - machine0.busy) / Math.max(1, machine1.total - machine0.total),
      ...(failed ? { failed } : {}),
    };
    steps.push(step);
    process.stdout.write(`STEP ${JSON.stringify(step)}\n`);
    if (failed) break;
    sustained = n;
  }
  running = false;
  clearInterval(ticker);
  await Promise.all(admins);
  agent.destroy();
  return { steps, sustained };
}
