import { type ChildProcess, spawn } from "node:child_process";
import { expect } from "@playwright/test";
import {
  type FirebaseEmulator,
  startFirebaseEmulator,
} from "../../src/server/testing/firebase-emulator";
import { freePort } from "../../src/server/testing/free-port";
import { portalDataDir } from "./learning";

/**
 * A second portal for e2e/firebase-auth.spec.ts: the same built client and server, started
 * with FIREBASE_PROJECT_ID, FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN and
 * FIREBASE_AUTH_EMULATOR_HOST, next to a Firebase Auth emulator. Both on free 127.0.0.1
 * ports, so it never clashes with the main test server or another run.
 */
export interface FirebasePortal {
  url: string;
  emulator: FirebaseEmulator;
  /** This portal's DATA_DIR, for `mailsTo` and `waitForMailLink` of e2e/support/learning.ts. */
  dataDir: string;
  stop(): Promise<void>;
}

export async function startFirebasePortal(): Promise<FirebasePortal> {
  const emulator = await startFirebaseEmulator();
  const port = String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const server: ChildProcess = spawn(process.execPath, ["e2e/support/start-server.mjs"], {
    env: {
      ...process.env,
      E2E_PORT: port,
      CONTENT_PORT: String(await freePort()),
      // The main test server has just built the client; two builds at once would clash.
      SKIP_WEB_BUILD: "1",
      LOG_LEVEL: "warn",
      MAX_EVENT_LOOP_DELAY_MS: "0",
      FIREBASE_PROJECT_ID: emulator.projectId,
      FIREBASE_API_KEY: emulator.apiKey,
      FIREBASE_AUTH_DOMAIN: `${emulator.projectId}.firebaseapp.com`,
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let exited = false;
  // The server prints its welcome ("... is running at <url>") once it listens.
  const ready = new Promise<void>((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`is running at ${url}`)) resolve();
    };
    server.stdout?.on("data", onOutput);
    server.stderr?.on("data", onOutput);
    server.once("exit", () => {
      exited = true;
      reject(new Error(`The Firebase portal exited before it was ready:\n${output}`));
    });
  });

  const stop = async () => {
    if (!exited) {
      const done = new Promise<void>((resolve) => server.once("exit", () => resolve()));
      // SIGTERM lets it stop the embedded database and remove its data directory.
      server.kill("SIGTERM");
      await done;
    }
    await emulator.stop();
  };

  // A guard only: the welcome line or the exit decides.
  const guard = setTimeout(() => server.kill("SIGTERM"), 90_000);
  try {
    await ready;
  } catch (error) {
    await emulator.stop();
    throw error;
  } finally {
    clearTimeout(guard);
  }
  expect((await fetch(`${url}/api/health`)).ok, output).toBe(true);

  return { url, emulator, dataDir: portalDataDir(port), stop };
}
