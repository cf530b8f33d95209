#!/usr/bin/env node
// `npm test`: lint, type-check, unit and API tests, then the browser tests against a
// freshly built client. Stops at the first failing step and prints each step's time.
// The browser tests find a Chromium by themselves (e2e/support/chromium.ts).
import { spawnSync } from "node:child_process";

// The unit and API tests record what each route answered (src/server/testing/api-statuses.ts);
// the OpenAPI coverage test then holds the document to those answers, once they all ran.
const recording = { ...process.env, RECORD_API_STATUSES: "1" };

const steps = [
  ["Lint and dead code", "npm", ["run", "lint"]],
  ["Type-check", "npx", ["tsc", "--noEmit"]],
  ["Unit and API tests", "npx", ["vitest", "run"], recording],
  ["OpenAPI coverage", "npx", ["vitest", "run", "--config", "vitest.openapi.config.ts"]],
  ["Build the web client", "npx", ["vite", "build", "--logLevel", "warn"]],
  ["Browser tests", "npx", ["playwright", "test"]],
];

const times = [];
const seconds = (start) => ((performance.now() - start) / 1000).toFixed(1);
const total = performance.now();
for (const [name, command, args, env = process.env] of steps) {
  console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
  const start = performance.now();
  const result = spawnSync(command, args, { stdio: "inherit", env });
  times.push(`  ${name}: ${seconds(start)} s`);
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed.\n${times.join("\n")}`);
    process.exit(result.status ?? 1);
  }
}
console.log(`\n✓ All checks passed in ${seconds(total)} s.\n${times.join("\n")}`);
