import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@contract": fileURLToPath(new URL("./src/contract/index.ts", import.meta.url)) },
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
    // scrypt and PGlite start-up are CPU-heavy: generous, not flaky.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
