/**
 * The load generator: one process per scenario, separate from the server under test.
 * `node --import tsx scripts/bench/load.ts <spec.json>` runs autocannon for the warm-up
 * (discarded) and then for the measured duration, and prints one JSON line (LoadResult).
 *
 * Request kinds (functions cannot cross a process boundary, so the spec carries data):
 * - `rotate`: each request is the next of a list (a different learner, cursor or term each time);
 * - `progress`: POST /api/progress/update walking every enrollment's remaining modules in
 *   order; an enrollment is never in flight twice, so each call completes the next unlocked
 *   module (a fresh completion); when every queue is empty, calls repeat (idempotent);
 * - `exam`: each learner starts a final-exam attempt (POST /api/courses/{id}/exam/attempts)
 *   and later submits it (POST /api/exam-attempts/{id}/submit) with a wrong option for every
 *   question, so it never passes and starts again; a learner is never in flight twice, so
 *   every start draws a new attempt and every submission grades one; the two are measured
 *   apart;
 * - `heartbeat`: POST /api/progress/heartbeat from learners watching a module's video at normal
 *   speed: each reports the media time that played since its previous beat (wall-clock
 *   seconds at playback rate 1, from where it stopped, again from 0 after the end); a learner
 *   is never in flight twice, and the rate is capped so no session exceeds the server's
 *   heartbeat limit;
 * - `range`: GET of a random `rangeBytes` range of a `fileBytes` file;
 * - `flood`: `rotate` measured, while more connections rotate over `flood` unmeasured from
 *   before the warm-up to the end (one learner asking for PDFs as fast as it can).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import autocannon from "autocannon";
import { runCrowd } from "./crowd";
import { holdAttempt } from "./exam";
import { latencyLog, percentile } from "./latency";
import type {
  ExamItem,
  HeartbeatItem,
  LoadResult,
  LoadSpec,
  ProgressItem,
  RequestSpec,
} from "./types";

const require = createRequire(import.meta.url);

/**
 * autocannon appends every response body to a string (`req.body += data`) even when nobody
 * reads it. For 8 MB video ranges that decoding costs the client more CPU than the server
 * spends sending them, so the client would be what is measured. Scenarios that do not read
 * bodies turn it off; the byte counts come from the socket and are unaffected.
 */
function discardBodies() {
  const queue = require("autocannon/lib/pipelinedRequestsQueue.js") as {
    prototype: { addBody(data: Buffer): void };
  };
  queue.prototype.addBody = () => {};
}

type Request = autocannon.Request;

function toRequest(r: RequestSpec): Request {
  return {
    method: r.method as Request["method"],
    path: r.path,
    headers: r.headers,
    ...(r.body === undefined ? {} : { body: r.body }),
  };
}

function rotating(list: RequestSpec[]) {
  let next = 0;
  return [
    {
      setupRequest: (req: Request) => {
        const r = list[next++ % list.length]!;
        return { ...req, ...toRequest(r) };
      },
    },
  ];
}

type ExamStep = "start" | "submit";

/** The exam scenario's learners: a FIFO of those with no request in flight. */
function examRequests(
  spec: Extract<LoadSpec, { kind: "exam" }>,
  stats: { created: number; resumed: number; failed: number; step: ExamStep | null },
) {
  const ready: ExamItem[] = [...spec.items];
  const inFlight = new Set<ExamItem>();
  const enc = encodeURIComponent;
  interface Ctx {
    item?: ExamItem;
    step?: ExamStep;
  }
  const requests = [
    {
      setupRequest: (req: Request, context: Ctx) => {
        const item = ready.shift();
        // run.ts gives the scenario at least as many learners as connections.
        if (!item) throw new Error("exam: more connections than learners");
        inFlight.add(item);
        context.item = item;
        if (item.attemptId) {
          context.step = "submit";
          return {
            ...req,
            method: "POST" as const,
            path: `/api/exam-attempts/${enc(item.attemptId)}/submit`,
            headers: { ...item.headers, "content-type": "application/json" },
            body: JSON.stringify({ answers: item.answers ?? [] }),
          };
        }
        context.step = "start";
        return {
          ...req,
          method: "POST" as const,
          path: `/api/courses/${enc(item.courseId)}/exam/attempts`,
          headers: item.headers,
        };
      },
      onResponse: (status: number, body: string, context: Ctx) => {
        const item = context.item;
        if (!item) return;
        // Read by the latency recorder: autocannon emits the response right after this hook.
        stats.step = context.step ?? null;
        inFlight.delete(item);
        if (context.step === "start" && (status === 201 || status === 200)) {
          if (status === 201) stats.created++;
          else stats.resumed++;
          holdAttempt(item, body, spec.wrongOption);
        } else {
          if (status !== 200) stats.failed++;
          item.attemptId = undefined;
          item.answers = undefined;
        }
        ready.push(item);
      },
    },
  ];
  /**
   * Learners whose request was cut off when the warm-up stopped go back to the queue and
   * start again: a start answers the attempt in progress (200) if the cut-off one made it.
   */
  const requeue = () => {
    for (const item of inFlight) {
      item.attemptId = undefined;
      item.answers = undefined;
      ready.push(item);
    }
    inFlight.clear();
  };
  return { requests, requeue };
}

/** The heartbeat scenario's learners: a FIFO of those with no heartbeat in flight. */
function heartbeatRequests(
  spec: Extract<LoadSpec, { kind: "heartbeat" }>,
  stats: { refused: number },
) {
  const ready: HeartbeatItem[] = [...spec.items];
  const inFlight = new Set<HeartbeatItem>();
  interface Ctx {
    item?: HeartbeatItem;
  }
  const requests = [
    {
      setupRequest: (req: Request, context: Ctx) => {
        const item = ready.shift();
        // run.ts gives the scenario at most as many connections as learners.
        if (!item) throw new Error("heartbeat: more connections than learners");
        inFlight.add(item);
        context.item = item;
        const now = performance.now();
        // What played since the previous beat, at normal speed; none before the first.
        const elapsed = item.lastBeatAt === undefined ? 0 : (now - item.lastBeatAt) / 1000;
        // The video ended: the learner watches it again from the start.
        let start = item.position ?? 0;
        if (start >= item.duration) start = 0;
        const end = Math.min(start + elapsed, item.duration);
        item.position = end;
        item.lastBeatAt = now;
        return {
          ...req,
          method: "POST" as const,
          path: "/api/progress/heartbeat",
          headers: { ...item.headers, "content-type": "application/json" },
          body: JSON.stringify({
            courseId: item.courseId,
            moduleId: item.moduleId,
            intervals: end > start ? [[start, end]] : [],
            position: end,
            duration: item.duration,
            playbackRate: 1,
            visible: true,
          }),
        };
      },
      onResponse: (status: number, _body: string, context: Ctx) => {
        const item = context.item;
        if (!item) return;
        if (status < 200 || status > 299) stats.refused++;
        inFlight.delete(item);
        ready.push(item);
      },
    },
  ];
  /**
   * Learners whose beat was cut off when the warm-up stopped go back to the queue; their
   * next beat reports everything played since the cut-off one was sent, as a player would.
   */
  const requeue = () => {
    for (const item of inFlight) ready.push(item);
    inFlight.clear();
  };
  return { requests, requeue };
}

function buildRequests(
  spec: Exclude<LoadSpec, { kind: "exam" | "heartbeat" | "crowd" }>,
  stats: { fresh: number; repeats: number; failed: number },
) {
  if (spec.kind === "rotate" || spec.kind === "flood") return rotating(spec.requests);
  if (spec.kind === "range") {
    const { path, headers, fileBytes, rangeBytes } = spec;
    return [
      {
        setupRequest: (req: Request) => {
          const start = Math.floor(Math.random() * (fileBytes - rangeBytes + 1));
          return {
            ...req,
            method: "GET" as const,
            path,
            headers: { ...headers, range: `bytes=${start}-${start + rangeBytes - 1}` },
          };
        },
      },
    ];
  }
  // progress: a FIFO of enrollments waiting for their next module.
  const ready: ProgressItem[] = spec.items.filter((i) => i.modules.length > 0);
  const all = spec.items;
  let repeatAt = 0;
  interface Ctx {
    item?: ProgressItem;
    fresh?: boolean;
  }
  return [
    {
      setupRequest: (req: Request, context: Ctx) => {
        let item = ready.shift();
        let moduleId: string;
        if (item) {
          moduleId = item.modules[0]!;
          context.fresh = true;
        } else {
          // Every queue is empty: repeat a module already completed (an idempotent call).
          item = all[repeatAt++ % all.length]!;
          moduleId = item.done ?? item.modules[0]!;
          context.fresh = false;
        }
        context.item = item;
        return {
          ...req,
          method: "POST" as const,
          path: "/api/progress/update",
          headers: { ...item.headers, "content-type": "application/json" },
          body: JSON.stringify({ userId: item.userId, courseId: item.courseId, moduleId }),
        };
      },
      onResponse: (status: number, _body: string, context: Ctx) => {
        const item = context.item;
        if (!item) return;
        if (!context.fresh) {
          stats.repeats++;
          return;
        }
        if (status === 200) {
          stats.fresh++;
          item.done = item.modules.shift();
          if (item.modules.length > 0) ready.push(item);
        } else {
          stats.failed++;
        }
      },
    },
  ];
}

type OnLatency = (ms: number, status: number, bytes: number) => void;

function start(opts: autocannon.Options, onLatency?: OnLatency) {
  let instance!: autocannon.Instance;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    if (onLatency) {
      instance.on("response", (_client, status, bytes, responseTime) =>
        onLatency(responseTime, status, bytes),
      );
    }
  });
  return { done, stop: () => instance.stop() };
}

const run = (opts: autocannon.Options, onLatency?: OnLatency) => start(opts, onLatency).done;

const statusCounts = (result: autocannon.Result) =>
  Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, v.count]),
  );

/** The capacity scenario: its own open-loop generator; the summary is its largest sustained step. */
async function crowd(spec: Extract<LoadSpec, { kind: "crowd" }>) {
  process.stdout.write("MEASURE\n");
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await runCrowd(spec);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const best = result.steps.find((s) => s.learners === result.sustained) ?? result.steps[0];
  const kinds = Object.values(best?.kinds ?? {});
  const worst = kinds.reduce((a, b) => (b.p95 > (a?.p95 ?? -1) ? b : a), kinds[0]);
  const out: LoadResult = {
    requests: kinds.reduce((sum, k) => sum + k.requests, 0),
    seconds,
    rps: kinds.reduce((sum, k) => sum + k.rps, 0),
    bytesPerSecond: kinds.reduce((sum, k) => sum + k.bytesPerSecond, 0),
    p50: worst?.p50 ?? 0,
    p95: worst?.p95 ?? 0,
    p99: worst?.p99 ?? 0,
    max: worst?.max ?? 0,
    non2xx: kinds.reduce((sum, k) => sum + k.non2xx, 0),
    errors: best?.errors ?? 0,
    timeouts: 0,
    statusCodes: {},
    clientCpu: (cpu.user + cpu.system) / 1e6 / seconds,
    crowd: result,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

async function main() {
  const spec = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as LoadSpec;
  if (spec.kind === "crowd") return crowd(spec);
  const stats = { fresh: 0, repeats: 0, failed: 0 };
  const examStats = { created: 0, resumed: 0, failed: 0, step: null as ExamStep | null };
  // Progress and exam requests read their answers (the exam's start gives the attempt).
  if (spec.kind !== "progress" && spec.kind !== "exam") discardBodies();
  const heartbeatStats = { refused: 0 };
  const exam = spec.kind === "exam" ? examRequests(spec, examStats) : null;
  const heartbeat = spec.kind === "heartbeat" ? heartbeatRequests(spec, heartbeatStats) : null;
  const requests =
    spec.kind === "exam"
      ? exam!.requests
      : spec.kind === "heartbeat"
        ? heartbeat!.requests
        : buildRequests(spec, stats);
  const base = {
    url: spec.url,
    connections: spec.connections,
    pipelining: 1,
    timeout: 30,
    requests: requests as Request[],
    ...(spec.kind === "heartbeat" ? { overallRate: spec.maxRate } : {}),
  };
  const flood =
    spec.kind === "flood"
      ? start({
          ...base,
          connections: spec.floodConnections,
          requests: rotating(spec.flood) as Request[],
          duration: spec.warmupSeconds + spec.durationSeconds + 5,
        })
      : undefined;
  if (spec.warmupSeconds > 0) await run({ ...base, duration: spec.warmupSeconds });
  stats.fresh = stats.repeats = stats.failed = 0;
  exam?.requeue();
  heartbeat?.requeue();
  examStats.created = examStats.resumed = examStats.failed = 0;
  const latencies = latencyLog();
  const steps = { start: latencyLog(), submit: latencyLog() };
  process.stdout.write("MEASURE\n");
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await run({ ...base, duration: spec.durationSeconds }, (ms, status, bytes) => {
    latencies.add(ms);
    if (exam && examStats.step) steps[examStats.step].add(ms, status, bytes);
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  flood?.stop();
  const flooded = await flood?.done;
  const sorted = latencies.sorted();
  const out: LoadResult = {
    requests: result.requests.total,
    seconds,
    rps: result.requests.total / seconds,
    bytesPerSecond: result.throughput.total / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : 0,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: statusCounts(result),
    clientCpu: (cpu.user + cpu.system) / 1e6 / seconds,
    ...(spec.kind === "progress" ? { progress: stats } : {}),
    // Counted from the warm-up on: any refusal means the learners were not at normal pace.
    ...(heartbeat ? { heartbeat: heartbeatStats } : {}),
    ...(exam
      ? {
          exam: {
            start: steps.start.step(seconds),
            submit: steps.submit.step(seconds),
            created: examStats.created,
            resumed: examStats.resumed,
            failed: examStats.failed,
          },
        }
      : {}),
    ...(flooded
      ? { flood: { requests: flooded.requests.total, statusCodes: statusCounts(flooded) } }
      : {}),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
