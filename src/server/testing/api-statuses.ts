import { subscribe } from "node:diagnostics_channel";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * What the test suite saw each route answer, for the OpenAPI coverage test
 * (src/server/openapi/openapi.coverage.test.ts), which runs after the suite.
 *
 * RECORD_API_STATUSES=1 starts a fresh recording at the start of a run (global-setup.ts);
 * RECORD_API_STATUSES=append adds to the last one, to re-run a few files without the
 * whole suite. Unset, nothing is recorded.
 */
export const API_STATUSES_DIR = fileURLToPath(
  new URL("../../../tmp/api-statuses", import.meta.url),
);

/** One kind of answer a route gave: its status and, for an error, its code. */
export interface RecordedAnswer {
  method: string;
  /** The route's address as registered (`/api/courses/:id`). */
  url: string;
  status: number;
  code?: string;
}

const mode = () => process.env.RECORD_API_STATUSES;

/** Global setup: an empty directory for a fresh recording. */
export function prepareApiStatusRecording() {
  if (mode() === "1") rmSync(API_STATUSES_DIR, { recursive: true, force: true });
  if (mode()) mkdirSync(API_STATUSES_DIR, { recursive: true });
}

const subscribed = Symbol.for("credo.recordApiStatuses");
const codes = new WeakMap<FastifyRequest, string>();

/**
 * Makes every portal app built in this process (by useTestApp or by a test calling
 * buildApp itself) record its answers. Fastify announces each new instance on a
 * diagnostics channel before any plugin or route is added, so hooks added there reach
 * every route, encapsulated ones included. Each kind of answer is written once per process.
 */
export function recordApiStatuses() {
  const globals = globalThis as { [subscribed]?: true };
  if (!mode() || globals[subscribed]) return;
  globals[subscribed] = true;
  const file = join(API_STATUSES_DIR, `${process.pid}.jsonl`);
  const seen = new Set<string>();
  subscribe("fastify.initialization", (message) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook("onSend", async (request, reply, payload) => {
      if (reply.statusCode >= 400 && typeof payload === "string" && payload.startsWith("{")) {
        try {
          const { code } = JSON.parse(payload) as { code?: unknown };
          if (typeof code === "string") codes.set(request, code);
        } catch {
          // Not JSON after all: an answer without a code.
        }
      }
      return payload;
    });
    fastify.addHook("onResponse", async (request, reply) => {
      const { url, method } = request.routeOptions;
      // Only the portal's own routes (the app registers @fastify/swagger): not the small
      // apps that plugin tests build, nor requests that matched no route.
      if (!url || !request.server.hasDecorator("swagger")) return;
      const answer: RecordedAnswer = {
        method: String(method),
        url,
        status: reply.statusCode,
        code: codes.get(request),
      };
      const line = JSON.stringify(answer);
      if (seen.has(line)) return;
      seen.add(line);
      appendFileSync(file, `${line}\n`);
    });
  });
}

/** Every kind of answer recorded by the last run, or null when nothing was recorded. */
export function readApiStatuses(): RecordedAnswer[] | null {
  if (!existsSync(API_STATUSES_DIR)) return null;
  const files = readdirSync(API_STATUSES_DIR).filter((name) => name.endsWith(".jsonl"));
  if (files.length === 0) return null;
  return files.flatMap((name) =>
    readFileSync(join(API_STATUSES_DIR, name), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordedAnswer),
  );
}
