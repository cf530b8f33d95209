#!/usr/bin/env node
// Runs ADL's cmi5 LMS Test Suite (CATAPULT LTS, read from ../shared/peers/catapult-lts)
// against the portal: copies the suite to a temporary folder with this folder's adapter,
// installs it, builds its test packages, starts a portal of its own (its own data directory
// and ports), runs jest and prints a summary. Exit status: jest's.
//
// Environment: CATAPULT_LTS_DIR (the suite), CMI5_LTS_PORT (the portal's port; the content
// origin is the next one), CHROMIUM_PATH (the browser), CMI5_LTS_CACHE (where the suite's
// install and built packages are kept between runs), CMI5_LTS_KEEP=1 (keep the temp folder).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const suiteSource = process.env.CATAPULT_LTS_DIR ?? join(root, "../shared/peers/catapult-lts");
const cacheRoot = process.env.CMI5_LTS_CACHE ?? join(tmpdir(), "credo-cmi5-lts-cache");
const started = Date.now();

const log = (line) => console.log(`[cmi5-lts] ${line}`);

function makeWritable(dir) {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(path);
    else chmodSync(path, 0o644);
  }
}

function run(command, args, options) {
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed with status ${result.status}`);
  }
}

/** A free port whose next port is free too (the content origin listens there). */
async function freePortPair() {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    if ((await tryPort(port)) && (await tryPort(port + 1))) return port;
  }
  throw new Error("no free pair of ports");
}

/** The browser: CHROMIUM_PATH, Debian's Chromium, or the project's packaged Chromium. */
function chromium() {
  for (const path of [process.env.CHROMIUM_PATH, "/usr/bin/chromium"]) {
    if (path && existsSync(path)) return path;
  }
  return execFileSync(
    process.execPath,
    [
      "-e",
      'import("@sparticuz/chromium").then(async (m) => console.log(await m.default.executablePath()))',
    ],
    { cwd: root, encoding: "utf8" },
  ).trim();
}

async function waitForHealth(url, portal) {
  for (let i = 0; i < 240; i++) {
    if (portal.exitCode !== null) throw new Error("the portal stopped while starting");
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the portal did not start");
}

/** The suite's JUnit results: every test case with its outcome. */
function readJunit(dir) {
  const cases = [];
  if (!existsSync(dir)) return cases;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".xml"))) {
    const xml = readFileSync(join(dir, file), "utf8");
    for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const attrs = Object.fromEntries(
        [...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
      );
      const body = match[3] ?? "";
      const outcome = /<failure\b/.test(body)
        ? "failed"
        : /<skipped\b/.test(body)
          ? "skipped"
          : "passed";
      const decode = (s) =>
        s
          .replace(/&quot;/g, '"')
          .replace(/&apos;/g, "'")
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&amp;/g, "&");
      const failure = /<failure[^>]*>([\s\S]*?)<\/failure>/.exec(body)?.[1] ?? "";
      cases.push({
        suite: decode(attrs.classname ?? ""),
        name: decode(attrs.name ?? ""),
        outcome,
        reason:
          decode(failure)
            .split("\n")
            .find((l) => l.trim()) ?? "",
      });
    }
  }
  return cases;
}

const work = mkdtempSync(join(tmpdir(), "credo-cmi5-lts-"));
const suite = join(work, "lts");
let portal;
let status = 1;
try {
  // The suite, writable, with the adapter and its settings.
  cpSync(suiteSource, suite, { recursive: true });
  makeWritable(suite);
  cpSync(join(here, "lms.custom.js"), join(suite, "lib/lms.custom.js"));

  // Its dependencies and test packages, kept between runs by the lock file's and sources' hash.
  const digest = createHash("sha256").update(readFileSync(join(suite, "package-lock.json")));
  const addTree = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) addTree(path);
      else digest.update(entry.name).update(readFileSync(path));
    }
  };
  addTree(join(suite, "pkg/src"));
  const hash = digest.digest("hex").slice(0, 16);
  const cache = join(cacheRoot, hash);
  const installEnv = {
    ...process.env,
    PUPPETEER_SKIP_DOWNLOAD: "1",
    PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: "1",
    NODE_OPTIONS: "--openssl-legacy-provider",
  };
  if (!existsSync(join(cache, "done"))) {
    log("installing the suite (first run; kept for the next ones)");
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: suite,
      env: installEnv,
    });
    log("building the suite's test packages");
    run("npx", ["webpack"], {
      cwd: join(suite, "pkg"),
      env: installEnv,
      stdio: ["ignore", "ignore", "inherit"],
    });
    cpSync(join(suite, "node_modules"), join(cache, "node_modules"), {
      recursive: true,
      verbatimSymlinks: true,
    });
    cpSync(join(suite, "pkg/dist"), join(cache, "dist"), { recursive: true });
    writeFileSync(join(cache, "done"), new Date().toISOString());
  } else {
    symlinkSync(join(cache, "node_modules"), join(suite, "node_modules"));
    cpSync(join(cache, "dist"), join(suite, "pkg/dist"), { recursive: true });
  }
  log(`${readdirSync(join(suite, "pkg/dist")).length} test packages`);

  // A portal of its own: fresh data, its own ports, the packaged browser as root needs it.
  const port = Number(process.env.CMI5_LTS_PORT ?? (await freePortPair()));
  const portalUrl = `http://localhost:${port}`;
  const adminKey = `lts-${createHash("sha256").update(work).digest("hex").slice(0, 16)}`;
  const dataDir = join(work, "data");
  mkdirSync(dataDir);
  portal = spawn(process.execPath, [join(root, "scripts/start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "development",
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: portalUrl,
      ADMIN_SETUP_KEY: adminKey,
      PASSWORD_SETUP_MODE: "open",
      TRUST_PROXY: "127.0.0.1",
      MAX_EVENT_LOOP_DELAY_MS: "0",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      SKIP_WEB_BUILD: "1",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(portalUrl, portal);
  log(`portal at ${portalUrl}, content at the next port`);

  const browser = chromium();
  writeFileSync(
    join(suite, "jest-puppeteer.config.js"),
    `module.exports = ${JSON.stringify(
      {
        launch: {
          headless: true,
          executablePath: browser,
          args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-zygote"],
        },
      },
      null,
      2,
    )};\n`,
  );
  writeFileSync(
    join(suite, ".env"),
    [
      'CATAPULT_LMS="./lib/lms.custom.js"',
      `CREDO_PORTAL_URL="${portalUrl}"`,
      `CREDO_ADMIN_KEY="${adminKey}"`,
      "",
    ].join("\n"),
  );

  const jest = spawnSync("npx", ["jest", "--runInBand", "--testTimeout=60000"], {
    cwd: suite,
    env: { ...process.env, PUPPETEER_EXECUTABLE_PATH: browser, HEADLESS: "true" },
    stdio: "inherit",
  });
  status = jest.status ?? 1;

  const cases = readJunit(join(suite, "var"));
  const results = join(root, "test-results/cmi5-lts");
  mkdirSync(results, { recursive: true });
  if (existsSync(join(suite, "var"))) cpSync(join(suite, "var"), results, { recursive: true });
  const count = (o) => cases.filter((c) => c.outcome === o).length;
  console.log("");
  log(
    `cmi5 LMS Test Suite: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped of ${cases.length} (${Math.round((Date.now() - started) / 1000)} s)`,
  );
  for (const c of cases.filter((x) => x.outcome !== "passed")) {
    log(
      `  ${c.outcome.toUpperCase()}: ${c.suite} › ${c.name}${c.reason ? ` — ${c.reason.slice(0, 200)}` : ""}`,
    );
  }
  log(`JUnit results in ${results}`);
  if (!cases.length) status = status || 1;
} catch (err) {
  console.error(`[cmi5-lts] ${err instanceof Error ? err.message : err}`);
  status = 1;
} finally {
  if (portal && portal.exitCode === null) {
    portal.kill("SIGTERM");
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        portal.kill("SIGKILL");
        resolve();
      }, 15_000);
      portal.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  if (process.env.CMI5_LTS_KEEP === "1") log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(status);
