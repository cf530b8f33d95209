import { defineConfig, devices } from "@playwright/test";
import { chromiumExecutable } from "./e2e/support/chromium";

import { SERVER_URL as baseURL, WHOLE_PORTAL_URL } from "./e2e/support/server-url";

const executablePath = await chromiumExecutable();

/** The tag of tests whose assertions cover the whole portal's data, not just their own. */
const WHOLE_PORTAL = /@whole-portal/;

const chromium = {
  ...devices["Desktop Chrome"],
  viewport: { width: 1280, height: 800 },
  launchOptions: {
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

/** A test portal on `url`'s port: a fresh server and data directory every run. */
const portal = (url: string) => ({
  command: "node e2e/support/start-server.mjs",
  url: `${url}/api/health`,
  env: { E2E_PORT: new URL(url).port || "80" },
  // No state or rate-limit counts carried over from another run.
  reuseExistingServer: false,
  // SIGTERM lets the server stop the embedded database and remove its temporary data directory.
  gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
  timeout: 120_000,
  stdout: "pipe" as const,
  stderr: "pipe" as const,
});

export default defineConfig({
  testDir: "e2e",
  // Screenshots go to test-results/screenshots; keep Playwright's own artifacts apart so
  // its clean-up at the start of a run does not delete them.
  outputDir: "test-results/artifacts",
  // Three browsers against the test portal: every test has its own client address and
  // accounts, so tests never share state (rate-limit counts included) and may run in any order.
  // A test spends part of its time waiting on the portal (a player's status read, a video
  // playing); a third browser fills those waits on a 2-core machine (about a sixth off the
  // suite's time).
  fullyParallel: true,
  workers: 3,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Guards against a hang, never the judge of a test: every wait is for the thing itself, and
  // a loaded 2-core machine runs the suite several times slower than a quiet one (a test
  // marked slow gets three times as long).
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    // Recording a trace costs about 40% of the suite's time (a screencast and a DOM snapshot
    // of every action), even when it is thrown away: a failure leaves its screenshot and error
    // context, and `npx playwright test --trace retain-on-failure` records traces to chase one.
    trace: "off",
    screenshot: "only-on-failure",
    locale: "en-US",
    // The CSS skips enter/exit animations then, so screenshots and axe see settled pages.
    contextOptions: { reducedMotion: "reduce" },
    timezoneId: "UTC",
  },
  projects: [
    // Figures over the whole portal (dashboard totals, newest items, reports) are only
    // exact while nobody else changes the portal: these tests have a portal of their own
    // and take it one at a time, beside the others. Listed first, so they start first and
    // do not queue up after the rest.
    {
      name: "whole portal",
      use: { ...chromium, baseURL: WHOLE_PORTAL_URL },
      grep: WHOLE_PORTAL,
      workers: 1,
    },
    { name: "chromium", use: chromium, grepInvert: WHOLE_PORTAL },
  ],
  webServer: [portal(baseURL), portal(WHOLE_PORTAL_URL)],
});
