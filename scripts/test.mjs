#!/usr/bin/env node
// `npm test`: lint, type-check, unit and API tests, then the browser tests against a
// freshly built client. Stops at the first failing step.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

function chromiumPath() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) {
    return process.env.CHROMIUM_PATH;
  }
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  return null;
}

async function playwrightHasOwnBrowser() {
  try {
    const { chromium } = await import("@playwright/test");
    return existsSync(chromium.executablePath());
  } catch {
    return false;
  }
}

const steps = [
  ["Lint and dead code", "npm", ["run", "lint"]],
  ["Type-check", "npx", ["tsc", "--noEmit"]],
  ["Unit and API tests", "npx", ["vitest", "run"]],
  ["Build the web client", "npx", ["vite", "build", "--logLevel", "warn"]],
  ["Browser tests", "npx", ["playwright", "test"]],
];

if (!chromiumPath() && !(await playwrightHasOwnBrowser())) {
  console.error(
    "No Chromium for the browser tests. Install it with `apt-get install -y chromium` " +
      "(Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium binary.",
  );
  process.exit(1);
}

for (const [name, command, args] of steps) {
  console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed.`);
    process.exit(result.status ?? 1);
  }
}
console.log("\n✓ All checks passed.");
