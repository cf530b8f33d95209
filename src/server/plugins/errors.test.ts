import fastifyRateLimit from "@fastify/rate-limit";
import Fastify from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MESSAGES } from "../../contract";
import { expectErrorBody } from "../testing/errors";
import { buildLearner } from "../testing/factories";
import { countLoginFailures, countSessions } from "../testing/inspect";
import { useTestApp } from "../testing/test-app";
import { AppError, conflict, registerErrorHandler, tooManyRequests } from "./errors";

/** No stack frames, file paths, SQL or error codes may reach a client. */
function expectNoInternals(body: string) {
  expect(body).not.toMatch(
    /\bat .+\(.+:\d+:\d+\)|node_modules|\.ts:\d+|FST_|select |insert |stack/i,
  );
}

describe("error handler on the real app", () => {
  const ctx = useTestApp();

  it("answers malformed JSON with 400 { message } and changes nothing", async () => {
    const learner = await buildLearner(ctx);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: `{"email": "${learner.email}", "password": `,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: "Request body is not valid JSON.",
      code: "request.invalid_json",
    });
    expectNoInternals(response.body);
    expect(await countSessions(ctx)).toBe(0);
    expect(await countLoginFailures(ctx)).toBe(0);
  });

  it("answers an empty JSON body with 400 { message }", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/check-email",
      headers: { "content-type": "application/json" },
      payload: "",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: "Request body is not valid JSON.",
      code: "request.invalid_json",
    });
  });

  it("answers an oversize body with 413 { message } before reading it", async () => {
    const learner = await buildLearner(ctx);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: {
        email: learner.email,
        password: learner.password,
        padding: "x".repeat(300 * 1024),
      },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      message: "Request body is too large.",
      code: "request.too_large",
    });
    expect(await countSessions(ctx)).toBe(0);
  });

  it("names the offending field in a validation error", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/check-email",
      payload: { email: "not-an-email" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: "Enter a valid email address",
      code: "validation.invalid_body",
      path: "email",
    });
  });

  it("names a missing field", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/check-email",
      payload: {},
    });
    expect(response.statusCode).toBe(400);
    expect(expectErrorBody(response)).toEqual({
      message: "Email is required",
      code: "validation.invalid_body",
      path: "email",
    });
  });

  it("answers wrong JSON types with 400 naming the field (no type coercion)", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "a@example.com", password: "secret1", rememberMe: "yes" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: "Remember me must be yes or no",
      code: "validation.invalid_body",
      path: "rememberMe",
    });
  });

  it("answers an unknown API address with 404 { message, code }", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: MESSAGES.notFound, code: "request.not_found" });
  });
});

/**
 * Calls an error factory with arguments of the kinds factories take (counts, sizes, a
 * step's key, a reason, a list of missing fields), trying numbers first.
 */
function sampleCall(make: (...args: unknown[]) => unknown): unknown {
  for (const sample of [2, "exam", ["exam"]]) {
    try {
      return make(...Array.from({ length: make.length }, () => sample));
    } catch {
      // This factory takes the other kind.
    }
  }
  throw new Error(`no sample arguments for ${make.name}`);
}

/** What /boom throws: a fixed error, or (when the app was built with null) `thrown`. */
let thrown: unknown = null;

describe("error handler in isolation", () => {
  async function appThrowing(error: unknown) {
    const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    app.get("/boom", async () => {
      throw error ?? thrown ?? new Error("nothing to throw");
    });
    app.post(
      "/typed",
      { schema: { body: z.object({ items: z.array(z.object({ n: z.number() })) }) } },
      () => ({
        ok: true,
      }),
    );
    await app.ready();
    return app;
  }

  it("hides a server error's message, stack and SQL behind a generic 500", async () => {
    const error = new Error('duplicate key value violates unique constraint "users_email_unique"');
    Object.assign(error, {
      code: "23505",
      detail: "Key (email)=(a@b.c) already exists.",
      query: "insert into users",
    });
    const app = await appThrowing(error);
    const response = await app.inject({ method: "GET", url: "/boom" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: MESSAGES.serverError, code: "system.error" });
    expectNoInternals(response.body);
    expect(response.body).not.toContain("users_email_unique");
    await app.close();
  });

  it("hides errors that are not Error objects too", async () => {
    const app = await appThrowing("a bare string with secrets");
    const response = await app.inject({ method: "GET", url: "/boom" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: MESSAGES.serverError, code: "system.error" });
    await app.close();
  });

  it("sends an AppError's status, message, code and headers", async () => {
    const app = await appThrowing(tooManyRequests("auth.throttled", "Slow down.", 12.2));
    const response = await app.inject({ method: "GET", url: "/boom" });
    expect(response.statusCode).toBe(429);
    expect(response.headers["retry-after"]).toBe("13");
    expect(response.json()).toEqual({ message: "Slow down.", code: "auth.throttled" });
    await app.close();

    const app2 = await appThrowing(conflict("exam.attempt_submitted", "Taken."));
    const response2 = await app2.inject({ method: "GET", url: "/boom" });
    expect(response2.statusCode).toBe(409);
    expect(response2.json()).toEqual({ message: "Taken.", code: "exam.attempt_submitted" });
    await app2.close();
  });

  it("answers every error a feature declares as { message, code } with the code's own status", async () => {
    const modules = import.meta.glob<Record<string, unknown>>("../*/*/*.errors.ts", {
      eager: true,
    });
    const errors = Object.entries(modules).flatMap(([file, exports]) =>
      Object.entries(exports).map(([name, make]) => ({ label: `${file} ${name}`, make })),
    );
    expect(errors.length).toBeGreaterThan(100);
    const app = await appThrowing(null);
    for (const { label, make } of errors) {
      expect(typeof make, label).toBe("function");
      const error = sampleCall(make as (...args: unknown[]) => unknown);
      expect(error, label).toBeInstanceOf(AppError);
      // The app above throws what `thrown` holds at the time of the request.
      thrown = error;
      const sent = await app.inject({ method: "GET", url: "/boom" });
      thrown = null;
      expect(sent.statusCode, label).toBe((error as AppError).statusCode);
      expect(expectErrorBody(sent, label)).toEqual((error as AppError).body);
    }
    await app.close();
  });

  it("answers a route's request limit with 429, its Retry-After and a code", async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    await app.register(fastifyRateLimit, { global: false });
    app.get("/limited", { config: { rateLimit: { max: 1, timeWindow: "1 minute" } } }, () => "ok");
    await app.ready();
    expect((await app.inject({ method: "GET", url: "/limited" })).statusCode).toBe(200);
    const limited = await app.inject({ method: "GET", url: "/limited" });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(expectErrorBody(limited).code).toBe("request.throttled");
    await app.close();
  });

  it("never sends a Retry-After below one second", async () => {
    const app = await appThrowing(tooManyRequests("auth.throttled", "Slow down.", -5));
    const response = await app.inject({ method: "GET", url: "/boom" });
    expect(response.headers["retry-after"]).toBe("1");
    await app.close();
  });

  it("names nested fields in words in the message, with dots in the path", async () => {
    const app = await appThrowing(null);
    const response = await app.inject({
      method: "POST",
      url: "/typed",
      payload: { items: [{ n: "1" }] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: "N must be a number",
      code: "validation.invalid_body",
      path: "items.0.n",
    });
    await app.close();
  });

  it("keeps Fastify's own client errors as 4xx without their internal codes", async () => {
    const app = await appThrowing(new Error("unused"));
    const response = await app.inject({
      method: "POST",
      url: "/typed",
      headers: { "content-type": "application/xml" },
      payload: "<items/>",
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      message: MESSAGES.jsonRequired,
      code: "request.json_required",
    });
    await app.close();
  });
});
