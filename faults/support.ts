import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { freePort } from "../src/server/testing/free-port";
import { createScratchDatabase } from "../src/server/testing/test-database";

const PG_SERVER = process.env.FAULTS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const root = new URL("..", import.meta.url).pathname;

export interface Instance {
  url: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the real server (`scripts/start.mjs`) as its own process and waits until it listens. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  // A port the OS reports free (a fixed range may hold another service, RabbitMQ on 5672)
  // can still be taken before the instance listens: the OS hands the same ephemeral ports
  // to outgoing connections, and the API tests run beside these open thousands. Then the
  // instance is started again on another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), env);
    } catch (error) {
      if (attempt === 5 || !String(error).includes("EADDRINUSE")) throw error;
    }
  }
}

async function startOn(port: number, env: Record<string, string>): Promise<Instance> {
  let log = "";
  const child = spawn(process.execPath, [join(root, "scripts/start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      SKIP_WEB_BUILD: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ADMIN_SETUP_KEY: "faults-admin-setup-key",
      PASSWORD_SETUP_MODE: "open",
      TRUST_PROXY: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = `http://127.0.0.1:${port}`;
  // The server prints its welcome ("... is running at <url>") once it listens.
  await waitForEvent<void>((resolve, reject) => {
    const onOutput = (d: Buffer) => {
      log += d;
      if (log.includes(" is running at ")) resolve();
    };
    child.stdout?.on("data", onOutput);
    child.stderr?.on("data", onOutput);
    child.once("exit", () => reject(new Error(`instance exited early:\n${log}`)));
  }, `the instance on port ${port} to listen`).catch((error) => {
    child.kill("SIGKILL");
    throw error;
  });
  return {
    url,
    port,
    process: child,
    output: () => log,
    stop: (signal = "SIGTERM") =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/** A throwaway PostgreSQL database for one fault test; dropped by the returned function. */
export const createDatabase = () => createScratchDatabase(PG_SERVER, "credo_fault");

const tempDirs: string[] = [];
/** A temporary directory removed when the test file ends (instances are stopped by then). */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "credo-fault-"));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Waits for an event: `listen` resolves or rejects the promise. The timeout only guards
 * against a hang (it fails the test); it never stands in for the event.
 */
export function waitForEvent<T>(
  listen: (resolve: (value: T) => void, reject: (error: Error) => void) => void,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
    listen(
      (value) => {
        clearTimeout(guard);
        resolve(value);
      },
      (error) => {
        clearTimeout(guard);
        reject(error);
      },
    );
  });
}

/**
 * Checks `condition` until it holds, for states that announce themselves by no event (a
 * file gone, a row written). The timeout only guards against a hang.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The address a fault-test client comes from: one in the IPv6 documentation range
 * 2001:db8::/32 derived from `who`, so every caller has its own rate-limit counts, the
 * same in every run.
 */
export function clientAddress(who: string): string {
  const digest = createHash("sha256").update(who).digest("hex");
  return ["2001", "0db8", ...digest.slice(0, 24).match(/.{4}/g)!].join(":");
}

/** A small HTTP client keeping one session cookie, sending JSON, from `ip`. */
export function client(baseUrl: string, ip: string) {
  let cookie = "";
  const request = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(cookie ? { cookie } : {}),
        "x-forwarded-for": ip,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.get("set-cookie");
    if (set?.startsWith("credo_session=")) cookie = set.split(";")[0]!;
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return {
      status: res.status,
      json: json as Record<string, unknown> & unknown[],
      headers: res.headers,
    };
  };
  return {
    request,
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      cookie = value;
    },
    withBase: (otherBase: string) => {
      const other = client(otherBase, ip);
      other.cookie = cookie;
      return other;
    },
  };
}

/**
 * Admin, a published course of `modules` modules and one enrolled learner, through the
 * API; `who` names the caller, whose admin and learner get addresses of their own.
 */
export async function seedCourse(baseUrl: string, who: string, modules = 3) {
  const { readFileSync } = await import("node:fs");
  const admin = client(baseUrl, clientAddress(`${who} admin`));
  const adminEmail = `admin-${randomBytes(3).toString("hex")}@faults.test`;
  let r = await admin.request("POST", "/api/auth/setup-admin-password", {
    email: adminEmail,
    password: "admin-pass-1",
    name: "Fault Admin",
    adminKey: "faults-admin-setup-key",
  });
  if (r.status !== 200) throw new Error(`admin setup: ${r.status} ${JSON.stringify(r.json)}`);
  const video = readFileSync(join(root, "test-fixtures/sample-video.mp4"));
  r = await admin.request("POST", "/api/objects/upload", {
    kind: "video",
    fileName: "v.mp4",
    contentType: "video/mp4",
    size: video.length,
  });
  const uploadURL = String((r.json as { uploadURL: string }).uploadURL);
  const put = await fetch(new URL(uploadURL, baseUrl), {
    method: "PUT",
    body: video,
    headers: { "content-type": "video/mp4", cookie: admin.cookie },
  });
  if (!put.ok) throw new Error(`upload: ${put.status}`);
  r = await admin.request("PUT", "/api/objects/set-acl", { objectURL: uploadURL });
  const videoUrl = String((r.json as { objectPath: string }).objectPath);
  r = await admin.request("POST", "/api/courses", {
    title: "Fault tolerance",
    description: "Course for fault tests",
    category: "Development",
    duration: 1,
    modules: [],
  });
  const courseId = String((r.json as { id: string }).id);
  const moduleIds: string[] = [];
  for (let i = 0; i < modules; i++) {
    const id = `module_${Date.now() + i}`;
    r = await admin.request("POST", `/api/courses/${courseId}/modules`, {
      id,
      title: `Module ${i + 1}`,
      duration: 5,
      videoUrl,
    });
    if (r.status !== 201) throw new Error(`module: ${r.status} ${JSON.stringify(r.json)}`);
    moduleIds.push(id);
  }
  await admin.request("PATCH", `/api/courses/${courseId}/publish`);
  const learnerEmail = `learner-${randomBytes(3).toString("hex")}@faults.test`;
  r = await admin.request("POST", "/api/auth/register", {
    email: learnerEmail,
    name: "Fault Learner",
  });
  const learnerId = String((r.json as { id: string }).id);
  const learner = client(baseUrl, clientAddress(`${who} learner`));
  r = await learner.request("POST", "/api/auth/setup-password", {
    email: learnerEmail,
    password: "learner-pass-1",
    name: "Fault Learner",
  });
  if (r.status !== 200) throw new Error(`learner setup: ${r.status}`);
  await admin.request("POST", "/api/enrollments", { userId: learnerId, courseId });
  return { admin, learner, learnerId, learnerEmail, courseId, moduleIds };
}

const PG_BIN = "/usr/lib/postgresql/15/bin";

/** A PostgreSQL cluster of one fault test's own, which it may stop and start at will. */
export interface OwnPostgres {
  /** The cluster's `postgres` database. */
  url: string;
  /** Starts the server; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server (fast shutdown: open connections are cut); resolves once it is down. */
  stop(): Promise<void>;
  /** Stops the server if it runs and deletes the cluster. */
  remove(): Promise<void>;
}

/**
 * Creates (initdb) and starts a throwaway cluster in a temporary directory, on a free port
 * with its unix socket inside that directory, so an outage never touches the machine's
 * shared server. PostgreSQL refuses to run as root: as root, it runs as 'postgres'.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), "credo-fault-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const run = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [command, all] = asRoot
        ? ["runuser", ["-u", "postgres", "--", join(PG_BIN, tool), ...args]]
        : [join(PG_BIN, tool), args];
      execFile(command, all, (error, stdout, stderr) =>
        error ? reject(new Error(`${tool} ${args.join(" ")}: ${stderr || stdout}`)) : resolve(),
      );
    });
  const data = join(dir, "data");
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  // -w: pg_ctl returns once the server accepts connections, or once it has shut down.
  const start = () =>
    run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", options, "-w", "start"]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  const cluster: OwnPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    remove: async () => {
      try {
        // A server that runs, or may run after a failed start, has its pid file.
        if (existsSync(join(data, "postmaster.pid"))) await stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  try {
    await run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
    await start();
  } catch (error) {
    await cluster.remove();
    throw error;
  }
  return cluster;
}
