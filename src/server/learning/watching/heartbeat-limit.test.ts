import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { quickLearner } from "../../testing/learning";
import { cookieHeader, useLoopback } from "../../testing/loopback";
import { useTestApp } from "../../testing/test-app";

/**
 * Heartbeats are limited per signed-in session, in production too (where the session cookie
 * is `__Host-credo_session`): learners behind one address (a clinic, a training room) each
 * have their own budget, and nobody can spend a learner's budget without their session.
 */
describe("heartbeat limit in production", () => {
  const ctx = useTestApp({ NODE_ENV: "production" });
  // Real sockets, all from one loopback address: TRUST_PROXY is off, as behind a NAT.
  const send = useLoopback(ctx);
  const address = "127.0.0.40";

  async function signedIn() {
    const learner = await quickLearner(ctx);
    const response = await send(address, {
      method: "POST",
      url: "/api/auth/login",
      payload: { email: learner.email, password: learner.password },
    });
    expect(response.statusCode).toBe(200);
    return cookieHeader(response, "__Host-credo_session")!;
  }

  const beat = (cookie?: string) =>
    send(address, {
      method: "POST",
      url: "/api/progress/heartbeat",
      headers: cookie ? { cookie } : {},
      payload: {
        courseId: "no-such-course",
        moduleId: "module_1700000000001",
        intervals: [],
        position: 0,
        duration: 60,
      },
    });

  /** Moves every open window's end an hour away, so none rolls over while the test runs. */
  const holdWindows = () =>
    ctx.database.db.execute(sql`update rate_limits set reset_at = now() + interval '1 hour'`);

  it("gives each session behind one address its own budget of 120 a minute", async () => {
    const first = await signedIn();
    const second = await signedIn();
    await beat(first);
    await beat(second);
    await beat();
    await holdWindows();
    // Anonymous requests from the same address are refused and spend nobody's budget.
    for (let i = 0; i < 130; i++) expect((await beat()).statusCode).toBe(401);
    for (let i = 1; i < 120; i++) expect((await beat(first)).statusCode).not.toBe(429);
    expect((await beat(first)).statusCode).toBe(429);
    // The colleague at the next desk is not affected.
    for (let i = 1; i < 120; i++) expect((await beat(second)).statusCode).not.toBe(429);
    expect((await beat(second)).statusCode).toBe(429);
  });
});
