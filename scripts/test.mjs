#!/usr/bin/env node
// `npm test`: lint, type-check, unit and API tests, then the browser tests against a
// freshly built client. Stops at the first failing step and prints each step's time.
// The browser tests find a Chromium by themselves (e2e/support/chromium.ts).
import { spawn } from "node:child_process";

// The unit and API tests record what each route answered (src/server/testing/api-statuses.ts);
// the OpenAPI coverage test then holds the document to those answers, once they all ran.
const recording = { ...process.env, RECORD_API_STATUSES: "1" };

// Steps in one group run side by side: each is a single process that leaves the other core
// idle (lint beside the type-check, the client's build beside the OpenAPI check). Each of
// them prints its output whole when it ends, so two steps' lines never interleave.
const groups = [
  [
    ["Lint and dead code", "npm", ["run", "lint"]],
    ["Type-check", "npx", ["tsc", "--noEmit"]],
  ],
  [["Unit and API tests", "npx", ["vitest", "run"], recording]],
  [
    ["OpenAPI coverage", "npx", ["vitest", "run", "--config", "vitest.openapi.config.ts"]],
    ["Build the web client", "npx", ["vite", "build", "--logLevel", "warn"]],
  ],
  [["Browser tests", "npx", ["playwright", "test"]]],
];

const seconds = (start) => ((performance.now() - start) / 1000).toFixed(1);

/** Runs one step; alone it prints as it goes, beside others it keeps its output for later. */
function run([name, command, args, env = process.env], alone) {
  const start = performance.now();
  if (alone) console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
  const child = spawn(command, args, { stdio: alone ? "inherit" : "pipe", env });
  const output = [];
  child.stdout?.on("data", (chunk) => output.push(chunk));
  child.stderr?.on("data", (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      if (!alone) {
        console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ name, code, time: `  ${name}: ${seconds(start)} s` });
    });
  });
}

const times = [];
const total = performance.now();
for (const group of groups) {
  const results = await Promise.all(group.map((step) => run(step, group.length === 1)));
  times.push(...results.map((r) => r.time));
  const failed = results.find((r) => r.code !== 0);
  if (failed) {
    console.error(`\n✗ ${failed.name} failed.\n${times.join("\n")}`);
    process.exit(failed.code ?? 1);
  }
}
console.log(`\n✓ All checks passed in ${seconds(total)} s.\n${times.join("\n")}`);
