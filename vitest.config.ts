import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@contract": fileURLToPath(new URL("./src/contract/index.ts", import.meta.url)) },
  },
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["src/server/testing/global-setup.ts"],
    environment: "node",
    // Guards against a hung test, never the judge of one: a loaded CI machine can run several
    // times slower than a quiet one, and the spawned command-line tools take the longest.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Vitest's default is one fewer than the cores: a single worker on a 2-core machine,
    // where most of a file's time is spent waiting on PGlite start-up and the event loop.
    maxWorkers: 2,
  },
});
