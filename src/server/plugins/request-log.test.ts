import Fastify, { LogController } from "fastify";
import { describe, expect, it } from "vitest";
import { registerRequestLog } from "./request-log";

async function logOf(level: string, production: boolean) {
  const lines: string[] = [];
  const app = Fastify({
    logger: { level, stream: { write: (line: string) => lines.push(line) } },
    logController: new LogController({ disableRequestLogging: true }),
  });
  registerRequestLog(app, { production });
  app.get("/api/health", async () => ({ ok: true }));
  await app.inject({ method: "GET", url: "/api/health?token=secret-value" });
  await app.close();
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("request log", () => {
  it("keeps a development console at info free of per-request lines", async () => {
    expect(await logOf("info", false)).toEqual([]);
  });

  it("writes one short line per request at debug, without secrets in the address", async () => {
    const lines = await logOf("debug", false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: "GET /api/health?token=[REDACTED]", status: 200 });
  });

  it("writes one line per request at info in production", async () => {
    const lines = await logOf("info", true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: expect.stringMatching(/^GET \/api\/health/) });
  });
});
