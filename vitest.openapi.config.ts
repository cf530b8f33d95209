import { defineConfig } from "vitest/config";

/**
 * The OpenAPI coverage test: compares the document with the answers the unit and API tests
 * recorded (RECORD_API_STATUSES), so it runs as its own step once they have all finished
 * (scripts/test.mjs, .ci/run).
 */
export default defineConfig({
  test: {
    include: ["src/server/openapi/*.coverage.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
