import { connect, type Socket } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerSlowBodyGuard } from "./slow-body-guard";

/** Resolves with how long the server took to close the socket. */
const closedAfter = (socket: Socket, start: number) =>
  new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now() - start)));

describe("slow body guard", () => {
  let app: FastifyInstance;
  let port: number;
  let release: () => void = () => {};

  beforeAll(async () => {
    app = Fastify();
    registerSlowBodyGuard(app, { windowMs: 200, minBytesPerWindow: 1_000 });
    app.post("/echo", async (request) => ({ length: JSON.stringify(request.body).length }));
    // Reads its body only when told to: this server, not the client, is the slow side.
    app.register(async (scope) => {
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
      scope.put("/late", async (request) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        let bytes = 0;
        for await (const chunk of request.raw) bytes += (chunk as Buffer).length;
        return { bytes };
      });
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
  });

  it("closes a connection that trickles its body", async () => {
    const socket = connect(port, "127.0.0.1");
    socket.resume();
    const start = Date.now();
    const closed = closedAfter(socket, start);
    socket.write(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n",
    );
    const drip = setInterval(() => socket.writable && socket.write("a"), 20);
    const elapsed = await closed;
    clearInterval(drip);
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1_000);
  });

  it("closes a connection that stops sending its body", async () => {
    const socket = connect(port, "127.0.0.1");
    socket.resume();
    const closed = closedAfter(socket, Date.now());
    socket.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{");
    expect(await closed).toBeLessThan(1_000);
  });

  it("serves bodies that arrive at a normal pace, however long they take", async () => {
    const body = JSON.stringify({ text: "x".repeat(20_000) });
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => {
      answer += d;
    });
    const closed = new Promise((r) => socket.once("close", r));
    socket.write(
      `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // 2,000 bytes every 100 ms: about a second in all, above the minimum in every window.
    for (let i = 0; i < body.length; i += 2_000) {
      socket.write(body.slice(i, i + 2_000));
      await new Promise((r) => setTimeout(r, 100));
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });

  it("does not blame the client while the server is not reading", async () => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => {
      answer += d;
    });
    const closed = new Promise((r) => socket.once("close", r));
    const size = 4 * 1024 * 1024;
    socket.write(
      `PUT /late HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
    );
    // Fills every buffer on the way, then waits for the server for several windows.
    socket.write(Buffer.alloc(size));
    await new Promise((r) => setTimeout(r, 1_200));
    expect(socket.destroyed).toBe(false);
    release();
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain(`{"bytes":${size}}`);
  });
});
