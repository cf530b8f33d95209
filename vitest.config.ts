import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files that replace a module, a global or the timers for their own run, or need the
 * state of a fresh process. They get a fresh module graph each; every other file shares its
 * worker's modules with the files before it, which saves loading the whole server again for each file (about 40% of the
 * suite's time).
 */
const REPLACES_MODULES = [
  "src/server/security/authentication.security.test.ts",
  // Compares extracted PDF text letter by letter: its fonts start unparsed, as a PDF
  // thread's do, not with the glyph state other files' PDFs left in them.
  "src/server/credit/certificates/certificate-design.test.ts",
  "src/server/platform/objects/objects.sweeper.test.ts",
  "src/web/lib/api-client.test.ts",
  "src/web/components/ui/use-toast.test.ts",
];

/** Runs after the suite, with vitest.openapi.config.ts. */
const OPENAPI_COVERAGE = "src/server/openapi/*.coverage.test.ts";

export default defineConfig({
  resolve: {
    alias: { "@contract": fileURLToPath(new URL("./src/contract/index.ts", import.meta.url)) },
  },
  test: {
    globalSetup: ["src/server/testing/global-setup.ts"],
    setupFiles: ["src/server/testing/record-api-statuses.ts"],
    environment: "node",
    // Guards against a hung test, never the judge of one: a loaded CI machine can run several
    // times slower than a quiet one, and the spawned command-line tools take the longest.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits for the thing itself (a mail written, a cache dropped): its limit is
    // the same guard against a hang, not the 1 s default a busy machine can overrun.
    expect: { poll: { timeout: 60_000 } },
    pool: "forks",
    // Vitest's default is one fewer than the cores: a single worker on a 2-core machine,
    // where most of a file's time is spent waiting on PGlite start-up and the event loop.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "shared modules",
          include: ["src/**/*.test.ts"],
          // The OpenAPI coverage test reads what this run recorded: its own step afterwards.
          exclude: [...REPLACES_MODULES, OPENAPI_COVERAGE],
          isolate: false,
        },
      },
      { extends: true, test: { name: "isolated", include: REPLACES_MODULES } },
    ],
  },
});
