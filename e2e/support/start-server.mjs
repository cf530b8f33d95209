#!/usr/bin/env node
// Starts the built portal for the browser tests on a fresh, throwaway data directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dataDir = mkdtempSync(join(tmpdir(), "credo-e2e-"));
const port = process.env.E2E_PORT ?? "5055";
Object.assign(process.env, {
  DATA_DIR: dataDir,
  PORT: port,
  HOST: "127.0.0.1",
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  ADMIN_SETUP_KEY: process.env.E2E_ADMIN_KEY ?? "e2e-admin-key",
  PASSWORD_SETUP_MODE: "open",
  // The test harness plays the reverse proxy: each test sends its own X-Forwarded-For, so
  // per-address rate limits see separate people, as in real use, not one busy address.
  TRUST_PROXY: "127.0.0.1",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  // Two browsers, the build and the embedded database share a loaded CI machine with this server: a lagging
  // event loop there is the test machine's, and shedding load would fail the tests for it.
  MAX_EVENT_LOOP_DELAY_MS: "0",
  SKIP_WEB_BUILD: process.env.SKIP_WEB_BUILD ?? "0",
});
// Tests read mail from DATA_DIR/outbox (invitations, password resets): tell them where it is.
const dataDirFile = join("test-results", `e2e-data-dir-${port}.txt`);
mkdirSync("test-results", { recursive: true });
writeFileSync(dataDirFile, dataDir);
process.on("exit", () => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(dataDirFile, { force: true });
});
await import("../../scripts/start.mjs");
