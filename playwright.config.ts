import { defineConfig, devices } from "@playwright/test";
import { chromiumExecutable } from "./e2e/support/chromium";

const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:5055";

const executablePath = await chromiumExecutable();

export default defineConfig({
  testDir: "e2e",
  // Screenshots go to test-results/screenshots; keep Playwright's own artifacts apart so
  // its clean-up at the start of a run does not delete them.
  outputDir: "test-results/artifacts",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    locale: "en-US",
    // The CSS skips enter/exit animations then, so screenshots and axe see settled pages.
    contextOptions: { reducedMotion: "reduce" },
    timezoneId: "UTC",
  },
  projects: [
    {
      name: "chromium",
      use: {
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
      },
    },
  ],
  webServer: {
    command: "node e2e/support/start-server.mjs",
    url: `${baseURL}/api/health`,
    // A fresh server and data directory every run: no state or rate-limit counts carried over.
    reuseExistingServer: false,
    // SIGTERM lets the server close PGlite and remove its temporary data directory.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
