#!/usr/bin/env node
// `npm start`: builds the web client when it is missing or older than its sources,
// then runs the server in this same process (so signals reach it directly).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const builtIndex = join(root, "dist/web/index.html");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function clientIsStale() {
  if (!existsSync(builtIndex)) return true;
  const built = statSync(builtIndex).mtimeMs;
  const sources = ["src/web", "src/contract"].map((d) => newestMtime(join(root, d)));
  return Math.max(...sources, statSync(join(root, "vite.config.ts")).mtimeMs) > built;
}

if (process.env.SKIP_WEB_BUILD !== "1" && clientIsStale()) {
  console.log("Building the web client (first start or sources changed)...");
  const vite = join(root, "node_modules/vite/bin/vite.js");
  const result = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) {
    console.error("The web client failed to build; see the errors above.");
    process.exit(result.status ?? 1);
  }
}

const { register } = await import("tsx/esm/api");
register();
await import(join(root, "src/server/main.ts"));
