import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** Starts the real server (`scripts/start.mjs`) as its own process and waits until it answers. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  // A port the OS reports free: a fixed range may hold another service (RabbitMQ on 5672).
  const port = await freePort();
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
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`instance exited early:\n${log}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    process: child,
    output: () => log,
    stop: (signal = "SIGTERM") =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/** A throwaway PostgreSQL database for one fault test; dropped by the returned function. */
export const createDatabase = () => createScratchDatabase(PG_SERVER, "credo_fault");

export const tempDir = () => mkdtempSync(join(tmpdir(), "credo-fault-"));

/** A small HTTP client keeping one session cookie, sending JSON, from a chosen address. */
export function client(baseUrl: string, ip = `198.51.100.${1 + Math.floor(Math.random() * 250)}`) {
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

/** Admin, a published course of `modules` modules and one enrolled learner, through the API. */
export async function seedCourse(baseUrl: string, modules = 3) {
  const { readFileSync } = await import("node:fs");
  const admin = client(baseUrl);
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
  const learner = client(baseUrl);
  r = await learner.request("POST", "/api/auth/setup-password", {
    email: learnerEmail,
    password: "learner-pass-1",
    name: "Fault Learner",
  });
  if (r.status !== 200) throw new Error(`learner setup: ${r.status}`);
  await admin.request("POST", "/api/enrollments", { userId: learnerId, courseId });
  return { admin, learner, learnerId, learnerEmail, courseId, moduleIds };
}
