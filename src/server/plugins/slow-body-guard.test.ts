import { connect, type Socket } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { registerSlowBodyGuard } from "./slow-body-guard";

const MIN_BYTES = 1_000;

describe("slow body guard", () => {
  let app: FastifyInstance;
  let port: number;
  let release: () => void = () => {};
  /** The server's side of the latest connection. */
  let serverSocket: Socket | undefined;
  /** The window checks of the requests in progress: the test ends windows itself. */
  const checks = new Set<() => void>();
  const endWindow = () => {
    for (const check of [...checks]) check();
  };

  beforeAll(async () => {
    app = Fastify();
    registerSlowBodyGuard(app, {
      windowMs: 200,
      minBytesPerWindow: MIN_BYTES,
      everyWindow: (check) => {
        checks.add(check);
        return () => checks.delete(check);
      },
    });
    app.server.on("connection", (socket: Socket) => {
      serverSocket = socket;
    });
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
  beforeEach(() => {
    serverSocket = undefined;
  });

  /** Opens a connection; `answer()` is what the server sent, `closed` its end. */
  function open() {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => {
      answer += d;
    });
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    return { socket, closed, answer: () => answer };
  }

  /** Resolves once the server has taken `bytes` bytes off the connection. */
  const serverHasRead = (bytes: number) =>
    vi.waitFor(() => expect(serverSocket?.bytesRead ?? 0).toBeGreaterThanOrEqual(bytes));

  it("closes a connection that trickles its body", async () => {
    const { socket, closed } = open();
    const head =
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n";
    socket.write(`${head}{"a":`);
    // The request is under way once its first window runs.
    await vi.waitFor(() => expect(checks.size).toBe(1));
    socket.write("1".repeat(10));
    await serverHasRead(head.length + 15);
    endWindow();
    await closed;
    expect(checks.size).toBe(0);
  });

  it("closes a connection that stops sending its body", async () => {
    const { socket, closed, answer } = open();
    socket.write(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{",
    );
    await vi.waitFor(() => expect(checks.size).toBe(1));
    endWindow();
    await closed;
    expect(answer()).toBe("");
  });

  it("serves bodies that arrive at a normal pace, however long they take", async () => {
    const body = JSON.stringify({ text: "x".repeat(20_000) });
    const { socket, closed, answer } = open();
    const head = `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    socket.write(head);
    await vi.waitFor(() => expect(checks.size).toBe(1));
    // Twice the minimum in every window, over ten windows.
    const chunks = Array.from({ length: Math.ceil(body.length / 2_000) }, (_, i) =>
      body.slice(i * 2_000, (i + 1) * 2_000),
    );
    let sent = head.length;
    for (const chunk of chunks.slice(0, -1)) {
      socket.write(chunk);
      sent += chunk.length;
      await serverHasRead(sent);
      endWindow();
      expect(serverSocket?.destroyed).toBe(false);
    }
    socket.write(chunks.at(-1)!);
    await closed;
    expect(answer()).toMatch(/^HTTP\/1\.1 200/);
    expect(answer()).toContain(`{"length":${body.length}}`);
  });

  it("does not blame the client while the server is not reading", async () => {
    const { socket, closed, answer } = open();
    const size = 4 * 1024 * 1024;
    socket.write(
      `PUT /late HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
    );
    // Fills every buffer on the way: the server stops reading the connection.
    socket.write(Buffer.alloc(size));
    await vi.waitFor(() => expect(serverSocket?.isPaused()).toBe(true));
    // Several windows without a byte read: none is held against the client.
    for (let window = 0; window < 3; window++) endWindow();
    expect(serverSocket?.destroyed).toBe(false);
    release();
    await closed;
    expect(answer()).toMatch(/^HTTP\/1\.1 200/);
    expect(answer()).toContain(`{"bytes":${size}}`);
  });
});
