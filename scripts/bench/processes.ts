/**
 * The processes of a benchmark run: the portal (scripts/start.mjs, production mode), the
 * hello-world baseline, nginx, and one load generator per scenario; plus /proc sampling of
 * their memory and CPU. Every process is started here and stopped by its own pid.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadResult, LoadSpec } from "./types";

export const root = new URL("../..", import.meta.url).pathname;
const CLOCK_TICKS = 100;

export interface Managed {
  url: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

/** Every process this run started and that still runs: what `stopAll` stops on Ctrl-C. */
const running = new Set<ChildProcess>();

function track<C extends ChildProcess>(child: C): C {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL if the process has not exited after `graceMs`. */
function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Stops every process of this run that still runs (an interrupted run). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child)));
}

function manage(child: ChildProcess, url: string): Managed {
  track(child);
  let log = "";
  child.stdout?.on("data", (d) => {
    log = (log + d).slice(-20_000);
  });
  child.stderr?.on("data", (d) => {
    log = (log + d).slice(-20_000);
  });
  return {
    url,
    pid: child.pid!,
    output: () => log,
    stop: () => stopChild(child),
  };
}

async function waitFor(url: string, child: ChildProcess, log: () => string, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no answer from ${url} after ${seconds}s:\n${log()}`);
}

/** The portal as in production: NODE_ENV=production, its own process, built client. */
export async function startPortal(
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
): Promise<Managed> {
  const child = spawn(process.execPath, [...nodeArgs, join(root, "scripts/start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      SKIP_WEB_BUILD: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      // Production serves only PUBLIC_URL's host, and the load is sent to this address.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // No package is played under load: the content server takes any free port.
      CONTENT_PORT: "0",
      ADMIN_SETUP_KEY: "bench-admin-setup-key",
      TRUST_PROXY: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const managed = manage(child, `http://127.0.0.1:${port}`);
  await waitFor(`${managed.url}/api/ready`, child, managed.output);
  return managed;
}

export async function startHello(port: number): Promise<Managed> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(root, "scripts/bench/hello.ts"), String(port)],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  const managed = manage(child, `http://127.0.0.1:${port}`);
  await waitFor(`${managed.url}/`, child, managed.output);
  return managed;
}

export function nginxBinary(): string | null {
  for (const path of ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]) {
    if (spawnSync(path, ["-v"]).status === 0) return path;
  }
  return null;
}

/** nginx with a temporary config: `daemon off`, `sendfile on`, serving the objects directory. */
export async function startNginx(
  binary: string,
  objectsDir: string,
  workDir: string,
  port: number,
): Promise<Managed> {
  mkdirSync(workDir, { recursive: true });
  const config = `
${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes auto;
daemon off;
pid ${workDir}/nginx.pid;
error_log ${workDir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  keepalive_timeout 75s;
  client_body_temp_path ${workDir}/client_body;
  proxy_temp_path ${workDir}/proxy;
  fastcgi_temp_path ${workDir}/fastcgi;
  uwsgi_temp_path ${workDir}/uwsgi;
  scgi_temp_path ${workDir}/scgi;
  default_type video/mp4;
  server {
    listen 127.0.0.1:${port};
    location /objects/uploads/ { alias ${objectsDir}/; }
  }
}
`;
  const file = join(workDir, "nginx.conf");
  writeFileSync(file, config);
  const child = spawn(binary, ["-c", file, "-p", workDir], { stdio: ["ignore", "pipe", "pipe"] });
  const managed = manage(child, `http://127.0.0.1:${port}`);
  const probe = `${managed.url}/objects/uploads/`;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${managed.output()}`);
    try {
      await fetch(probe);
      return managed;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not start:\n${managed.output()}`);
}

/** CPU seconds (user + system) a process used so far, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/**
 * Waits until a process is quiet: less than a tenth of a core over a second, or `maxMs`
 * passed. Answers the seconds waited. A scenario that completes courses leaves the portal
 * rendering the certificates' mails for a while after its last request; the next scenario
 * is measured once that work is done, not beside it.
 */
export async function quietAfter(pid: number, maxMs: number): Promise<number> {
  const start = Date.now();
  let before = cpuSeconds(pid);
  while (Date.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuSeconds(pid);
    if (now - before < 0.1) break;
    before = now;
  }
  return (Date.now() - start) / 1000;
}

/** Resident memory of a process in bytes. */
function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Whole-machine busy and total jiffies, to report how saturated the two cores were. */
export function machineTicks() {
  const [line] = readFileSync("/proc/stat", "utf8").split("\n");
  const v = line!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.reduce((s, x) => s + x, 0);
  return { busy: total - idle, total };
}

/** Share of the machine's CPU busy over `ms` milliseconds (0..1). */
export async function machineBusyOver(ms: number): Promise<number> {
  const a = machineTicks();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineTicks();
  return (b.busy - a.busy) / Math.max(1, b.total - a.total);
}

export interface Sampled {
  result: LoadResult;
  /** Server process: CPU use in cores (1.0 = one core busy), RSS before, peak and after. */
  serverCpu: number;
  loadCpu: number;
  machineBusy: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
}

/**
 * Runs one scenario's load process and samples the server process while it runs. The load
 * process prints MEASURE when its warm-up ends: CPU is counted from there; memory from the
 * start (RSS before any request of the scenario, and its peak through warm-up and measure).
 */
export async function runLoad(
  spec: LoadSpec,
  specFile: string,
  serverPid: number | null,
): Promise<Sampled> {
  writeFileSync(specFile, JSON.stringify(spec));
  const child = track(
    spawn(process.execPath, ["--import", "tsx", join(root, "scripts/bench/load.ts"), specFile], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let out = "";
  let err = "";
  let start: { server: number; machine: ReturnType<typeof machineTicks> } | null = null;
  // Memory is compared with the server before this scenario's first request (warm-up included).
  const rssBefore = serverPid ? rssBytes(serverPid) : 0;
  let rssPeak = rssBefore;
  child.stdout.on("data", (d) => {
    out += d;
    if (!start && out.includes("MEASURE\n")) {
      start = { server: serverPid ? cpuSeconds(serverPid) : 0, machine: machineTicks() };
    }
  });
  child.stderr.on("data", (d) => (err += d));
  const timer = setInterval(() => {
    if (serverPid) rssPeak = Math.max(rssPeak, rssBytes(serverPid));
  }, 100);
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`load process failed (${code}):\n${err}`)),
    );
  });
  clearInterval(timer);
  const endServer = serverPid ? cpuSeconds(serverPid) : 0;
  const endMachine = machineTicks();
  const result = JSON.parse(out.trim().split("\n").at(-1)!) as LoadResult;
  const s = start ?? { server: endServer, machine: endMachine };
  const seconds = Math.max(0.1, result.seconds);
  return {
    result,
    serverCpu: (endServer - s.server) / seconds,
    loadCpu: result.clientCpu,
    machineBusy:
      (endMachine.busy - s.machine.busy) / Math.max(1, endMachine.total - s.machine.total),
    rssBefore,
    rssPeak,
    rssAfter: serverPid ? rssBytes(serverPid) : 0,
  };
}
