import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port";

/** The firebase-tools CLI (a devDependency); the Auth emulator inside it is Node-only. */
const FIREBASE_CLI = fileURLToPath(new URL("../../../node_modules/.bin/firebase", import.meta.url));
export const firebaseCliMissing = !existsSync(FIREBASE_CLI);
export const FIREBASE_CLI_MISSING_MESSAGE =
  "Firebase Auth emulator tests skipped: node_modules/.bin/firebase is missing (run `npm install`; firebase-tools is a devDependency).";

interface EmulatorAccount {
  localId: string;
  email?: string;
  emailVerified?: boolean;
  disabled?: boolean;
  validSince?: string;
}

export interface FirebaseEmulator {
  /** host:port, the value of FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  /** A `demo-` project: the CLI then needs no login and no network. */
  projectId: string;
  /** Any string works as the emulator's API key. */
  apiKey: string;
  /** Creates an account as the web SDK's createUserWithEmailAndPassword does. */
  signUp(email: string, password: string): Promise<{ uid: string; idToken: string }>;
  /** Signs in as signInWithEmailAndPassword does; throws with the emulator's error code. */
  signIn(email: string, password: string): Promise<{ uid: string; idToken: string }>;
  /** Privileged update (the emulator's "Bearer owner"), e.g. `{ emailVerified: true }`. */
  update(uid: string, fields: Record<string, unknown>): Promise<void>;
  /** The account, or undefined when there is none. */
  lookup(uid: string): Promise<EmulatorAccount | undefined>;
  /** Deletes every account of the project. */
  clear(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `firebase emulators:start --only auth` on free 127.0.0.1 ports (its hub and
 * logging ports too, so parallel runs never clash) and resolves once it answers.
 * Offline it first waits a few seconds for the CLI's news feed to fail; under load the
 * whole start can take 20-40 s.
 */
export async function startFirebaseEmulator(timeoutMs = 150_000): Promise<FirebaseEmulator> {
  if (firebaseCliMissing) throw new Error(FIREBASE_CLI_MISSING_MESSAGE);
  const dir = mkdtempSync(join(tmpdir(), "credo-firebase-"));
  const [authPort, hubPort, loggingPort] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(
    join(dir, "firebase.json"),
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port: authPort },
        hub: { host: "127.0.0.1", port: hubPort },
        logging: { host: "127.0.0.1", port: loggingPort },
        ui: { enabled: false },
      },
    }),
  );
  const projectId = `demo-credo-${randomBytes(4).toString("hex")}`;
  const host = `127.0.0.1:${authPort}`;
  const base = `http://${host}`;
  let output = "";
  const child: ChildProcess = spawn(
    FIREBASE_CLI,
    ["emulators:start", "--only", "auth", "--project", projectId],
    {
      cwd: dir,
      // Its own process group: stop() ends the CLI and anything it started, and nothing else.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: "", CI: "true" },
    },
  );
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });

  const stop = async () => {
    if (!exited && child.pid) {
      const done = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      process.kill(-child.pid, "SIGTERM");
      const killTimer = setTimeout(() => {
        if (!exited && child.pid) process.kill(-child.pid, "SIGKILL");
      }, 10_000);
      await done;
      clearTimeout(killTimer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const started = Date.now();
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`The Firebase Auth emulator exited before it was ready:\n${output}`);
    }
    try {
      const response = await fetch(`${base}/`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() - started > timeoutMs) {
      await stop();
      throw new Error(`The Firebase Auth emulator did not start in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  const apiKey = "demo-api-key";
  const toolkit = `${base}/identitytoolkit.googleapis.com/v1`;
  async function call(path: string, body: unknown, owner = false) {
    const response = await fetch(`${toolkit}/${path}?key=${apiKey}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(owner ? { authorization: "Bearer owner" } : {}),
      },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) {
      const message = (json.error as { message?: string } | undefined)?.message ?? "error";
      throw new Error(`emulator ${path}: ${message}`);
    }
    return json;
  }
  async function passwordCall(path: string, email: string, password: string) {
    const json = await call(path, { email, password, returnSecureToken: true });
    return { uid: String(json.localId), idToken: String(json.idToken) };
  }

  return {
    host,
    projectId,
    apiKey,
    signUp: (email, password) => passwordCall("accounts:signUp", email, password),
    signIn: (email, password) => passwordCall("accounts:signInWithPassword", email, password),
    async update(uid, fields) {
      await call(`projects/${projectId}/accounts:update`, { localId: uid, ...fields }, true);
    },
    async lookup(uid) {
      const json = await call(`projects/${projectId}/accounts:lookup`, { localId: [uid] }, true);
      return (json.users as EmulatorAccount[] | undefined)?.[0];
    },
    async clear() {
      await fetch(`${base}/emulator/v1/projects/${projectId}/accounts`, { method: "DELETE" });
    },
    stop,
  };
}
