import { describe, expect, it } from "vitest";
import {
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP,
  LOGIN_WINDOW_MS,
  MESSAGES,
} from "../../../contract";
import { AppError } from "../../plugins/errors";
import { countLoginFailures } from "../../testing/inspect";
import { useTestApp } from "../../testing/test-app";
import { loginFailures } from "./auth.table";
import { createLoginThrottle } from "./login-throttle";

const EMAIL = "target@example.com";

describe("login throttle", () => {
  const ctx = useTestApp();
  const throttle = () => createLoginThrottle({ db: ctx.database.db });

  /** Failed attempts that went through the throttle, as the login route makes them. */
  async function fail(times: number, ip: string, email = EMAIL) {
    const t = throttle();
    for (let i = 0; i < times; i++) {
      await t.beginAttempt(email, ip);
      await t.recordFailure();
    }
  }

  /**
   * The least Retry-After a lock can answer now when the window's oldest failure came no
   * earlier than `oldest` (whole seconds, rounded up).
   */
  const secondsLeft = (oldest: number) =>
    Math.floor((oldest + LOGIN_WINDOW_MS - Date.now()) / 1000);

  /** The 429 an attempt now would get, or undefined when it may go ahead (then withdrawn). */
  async function refusal(email: string, ip: string): Promise<AppError | undefined> {
    try {
      await throttle().withdraw(await throttle().beginAttempt(email, ip));
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    }
  }

  it("uses the throttling limits: 10 per account and address, 20 per account, in 5 minutes", () => {
    expect(LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP).toBe(10);
    expect(LOGIN_MAX_FAILURES_PER_ACCOUNT).toBe(20);
    expect(LOGIN_WINDOW_MS).toBe(5 * 60 * 1000);
  });

  it("allows 9 failures from one address and locks that address at the 10th", async () => {
    const firstFailure = Date.now();
    await fail(9, "10.0.0.1");
    expect(await refusal(EMAIL, "10.0.0.1")).toBeUndefined();
    await fail(1, "10.0.0.1");
    const error = await refusal(EMAIL, "10.0.0.1");
    expect(error?.statusCode).toBe(429);
    expect(error?.message).toBe(MESSAGES.tooManyAttempts);
    const retryAfter = Number(error?.headers["retry-after"]);
    // The window counts from the first failure: however long the failures took to make.
    expect(retryAfter).toBeGreaterThanOrEqual(secondsLeft(firstFailure));
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000);
  });

  it("keeps the account open from other addresses until 20 failures in all", async () => {
    await fail(10, "10.0.0.1");
    expect(await refusal(EMAIL, "10.0.0.2")).toBeUndefined();
    await fail(9, "10.0.0.2");
    expect(await refusal(EMAIL, "10.0.0.3")).toBeUndefined();
    await fail(1, "10.0.0.3");
    for (const ip of ["10.0.0.1", "10.0.0.2", "10.0.0.3", "192.168.0.9"]) {
      expect((await refusal(EMAIL, ip))?.statusCode, ip).toBe(429);
    }
  });

  it("never locks other accounts behind the same address", async () => {
    await fail(10, "10.0.0.1");
    await fail(10, "10.0.0.2");
    expect(await refusal(EMAIL, "10.0.0.1")).toBeDefined();
    expect(await refusal("someone.else@example.com", "10.0.0.1")).toBeUndefined();
  });

  it("forgets failures older than the window", async () => {
    const old = new Date(Date.now() - LOGIN_WINDOW_MS - 1000);
    await ctx.database.db
      .insert(loginFailures)
      .values(Array.from({ length: 25 }, () => ({ email: EMAIL, ip: "10.0.0.1", createdAt: old })));
    expect(await refusal(EMAIL, "10.0.0.1")).toBeUndefined();
    // Recording a new failure purges rows that left the window.
    await fail(1, "10.0.0.1");
    expect(await countLoginFailures(ctx)).toBe(1);
  });

  it("tells when the lock lifts: Retry-After counts from the oldest failure in the window", async () => {
    const fourMinutesAgo = new Date(Date.now() - 4 * 60 * 1000);
    await ctx.database.db.insert(loginFailures).values(
      Array.from({ length: 10 }, () => ({
        email: EMAIL,
        ip: "10.0.0.1",
        createdAt: fourMinutesAgo,
      })),
    );
    const retryAfter = Number((await refusal(EMAIL, "10.0.0.1"))?.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(secondsLeft(fourMinutesAgo.getTime()));
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it("clears an address's failures after a successful sign-in from it, and only those", async () => {
    await fail(9, "10.0.0.1");
    await fail(5, "10.0.0.2");
    await throttle().recordSuccess(EMAIL, "10.0.0.1");
    expect(await countLoginFailures(ctx)).toBe(5);
  });

  it("lets at most 10 of a burst of concurrent attempts from one address through", async () => {
    const t = throttle();
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, () => t.beginAttempt(EMAIL, "10.0.0.1")),
    );
    expect(results.filter((r) => r.status === "fulfilled").length).toBeLessThanOrEqual(10);
    for (const r of results) {
      if (r.status === "rejected") expect((r.reason as AppError).statusCode).toBe(429);
    }
    // Refused attempts were withdrawn: only the admitted ones count as failures.
    const admitted = results.filter((r) => r.status === "fulfilled").length;
    expect(await countLoginFailures(ctx)).toBe(admitted);
  });

  it("withdraws an attempt whose password was right", async () => {
    const t = throttle();
    await fail(9, "10.0.0.1");
    await t.withdraw(await t.beginAttempt(EMAIL, "10.0.0.1"));
    expect(await countLoginFailures(ctx)).toBe(9);
    expect(await refusal(EMAIL, "10.0.0.1")).toBeUndefined();
  });
});
