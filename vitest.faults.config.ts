import { defineConfig } from "vitest/config";

/** `npm run test:faults`: real processes, signals and database restarts, one file at a time. */
export default defineConfig({
  test: {
    include: ["faults/**/*.fault.ts"],
    environment: "node",
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: "forks",
  },
});
