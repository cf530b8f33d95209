import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { MESSAGES } from "../contract";
import { anotherInstance, useTestApp } from "./testing/test-app";

/**
 * Keeps this thread busy in slices of `sliceMs`, as a portal's start-up work or a flood of
 * requests does, until the load shedding has sampled the event loop again (on a slow
 * machine, its first sample may come while the portal is still being built).
 */
async function busyUntilSampled(app: FastifyInstance, sliceMs: number) {
  const sampled = () => {
    const { heapUsed, rssBytes } = app.memoryUsage();
    return `${heapUsed}/${rssBytes}`;
  };
  const before = sampled();
  while (sampled() === before) {
    const until = performance.now() + sliceMs;
    while (performance.now() < until) {
      // The work of one slice.
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A portal on PostgreSQL, as in production. The app is handed its test database, so the
 * URL is never opened.
 */
const onPostgres = { DATABASE_URL: "postgres://localhost/credo" };

describe("load shedding", () => {
  const ctx = useTestApp();
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("answers the first requests after a start-up that kept the thread busy", async () => {
    app = await anotherInstance(ctx, { shedLoad: true, env: onPostgres });
    // Every slice ends within milliseconds, so nothing waits long: no reason to refuse.
    await busyUntilSampled(app, 20);

    const response = await app.inject({ method: "GET", url: "/api/config" });
    expect(response.statusCode).toBe(200);
  });

  it("refuses with 503 and Retry-After while the event loop lags past its limit", async () => {
    app = await anotherInstance(ctx, {
      shedLoad: true,
      env: { ...onPostgres, MAX_EVENT_LOOP_DELAY_MS: "5" },
    });
    // Slices of 60 ms hold every other request back about that long.
    await busyUntilSampled(app, 60);

    const response = await app.inject({ method: "GET", url: "/api/config" });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("10");
    expect(response.json()).toMatchObject({ message: MESSAGES.unavailable });
  });
});
