import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startInstance, tempDir } from "./support";

/** The server's limits (src/server/app.ts, src/server/plugins/slow-body-guard.ts). */
const HEADERS_TIMEOUT_MS = 30_000;
const BODY_WINDOW_MS = 10_000;

interface SlowClient {
  kind: "headers" | "body" | "idle";
  /** Milliseconds from connect to the server closing the connection. */
  closed: Promise<number>;
  /** What the server answered, if anything, before closing. */
  answer: () => string;
  stop(): void;
}

/**
 * A client that opens a connection and then sends one byte a second: the request headers
 * never end (slowloris), the body never ends (slow POST), or nothing at all (idle).
 */
function slowClient(port: number, kind: SlowClient["kind"]): SlowClient {
  const socket: Socket = connect(port, "127.0.0.1");
  const start = Date.now();
  let answer = "";
  socket.on("data", (d) => {
    answer += d;
  });
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) =>
    socket.once("close", () => resolve(Date.now() - start)),
  );
  const opening =
    kind === "headers"
      ? "GET /api/courses HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      : kind === "body"
        ? "POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{"
        : "";
  if (opening) socket.write(opening);
  const drip =
    "x-slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
  let i = 0;
  const timer =
    kind === "idle"
      ? undefined
      : setInterval(() => {
          if (!socket.destroyed) socket.write(kind === "headers" ? drip[i++ % drip.length]! : " ");
        }, 1_000);
  socket.once("close", () => clearInterval(timer));
  return {
    kind,
    closed,
    answer: () => answer,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

describe("slow clients", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it("are cut off by the timeouts while other users are served quickly", async () => {
    const app = await startInstance({ DATA_DIR: tempDir() });
    cleanups.push(() => app.stop());
    const clients = [
      ...Array.from({ length: 25 }, () => slowClient(app.port, "headers")),
      ...Array.from({ length: 25 }, () => slowClient(app.port, "body")),
      ...Array.from({ length: 10 }, () => slowClient(app.port, "idle")),
    ];
    cleanups.push(async () => {
      for (const c of clients) c.stop();
    });

    // Meanwhile another user keeps using the portal, a request every 100 ms, until every
    // slow client is gone; answers that come while all of them still hold their
    // connections count apart.
    let slowOpen = clients.length;
    for (const c of clients) void c.closed.then(() => (slowOpen -= 1));
    const latencies: number[] = [];
    const statuses: number[] = [];
    let servedAmidAll = 0;
    let serving = true;
    const user = (async () => {
      while (serving) {
        const t = performance.now();
        const res = await fetch(`${app.url}/api/health`);
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        statuses.push(res.status);
        if (slowOpen === clients.length && res.ok) servedAmidAll += 1;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const closedAfter = await Promise.all(clients.map((c) => c.closed));
    serving = false;
    await user;

    const worst = (kind: SlowClient["kind"]) =>
      Math.max(...clients.flatMap((c, i) => (c.kind === kind ? [closedAfter[i]!] : [])));
    const first = (kind: SlowClient["kind"]) =>
      Math.min(...clients.flatMap((c, i) => (c.kind === kind ? [closedAfter[i]!] : [])));
    const summary = {
      headers: [first("headers"), worst("headers")],
      body: [first("body"), worst("body")],
      idle: [first("idle"), worst("idle")],
      requests: statuses.length,
      p50: Math.round(percentile(latencies, 0.5)),
      p99: Math.round(percentile(latencies, 0.99)),
      max: Math.round(Math.max(...latencies)),
    };
    console.log(
      "slow clients closed after [first, last] ms, and the other user's latency:",
      summary,
    );

    // Unfinished headers (or none at all): 408 and closed once headersTimeout passed,
    // never before it. (How long after depends on the machine; the test's timeout guards.)
    for (const kind of ["headers", "idle"] as const) {
      expect(first(kind)).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    }
    for (const c of clients.filter((c) => c.kind !== "body")) {
      expect(c.answer()).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    }
    // A trickling body: closed after a window that brought too few bytes, never before.
    expect(first("body")).toBeGreaterThanOrEqual(BODY_WINDOW_MS - 100);

    // The other user never noticed: answered, also while all 60 connections were held.
    expect(servedAmidAll).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(app.output()).toContain("request body too slow");
  });
});
