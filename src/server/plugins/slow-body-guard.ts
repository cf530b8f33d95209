import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

export interface SlowBodyGuardOptions {
  /** Length of one measuring window. */
  windowMs: number;
  /** Bytes a client must send in each window while its request body is unfinished. */
  minBytesPerWindow: number;
  /**
   * Runs `check` at the end of every window until the returned function is called;
   * a timer of `windowMs` unless given (tests end windows themselves).
   */
  everyWindow?: (check: () => void) => () => void;
}

/**
 * 8 KiB per 10 s (under 1 KiB/s) is far below any real uplink: a 500 MB video over a
 * 1 Mbit/s line brings 1.2 MB per window. A trickling client is cut within 10–20 s.
 */
const SLOW_BODY_DEFAULTS: SlowBodyGuardOptions = {
  windowMs: 10_000,
  minBytesPerWindow: 8 * 1024,
};

/**
 * Cuts off clients that trickle a request body (slow POST). Node's own timers do not:
 * `headersTimeout` ends with the headers, the socket idle timeout restarts with every byte,
 * and `requestTimeout` must allow a whole 500 MB upload (an hour). So while a body is
 * unfinished, every window must bring `minBytesPerWindow` bytes or the body's end, or the
 * connection is closed. A window in which this server paused reading (backpressure from a
 * slow disk, or a body not read yet) is not held against the client.
 */
export function registerSlowBodyGuard(
  app: FastifyInstance,
  options: SlowBodyGuardOptions = SLOW_BODY_DEFAULTS,
) {
  const everyWindow =
    options.everyWindow ??
    ((check: () => void) => {
      const timer = setInterval(check, options.windowMs);
      // An unfinished body must not keep the process alive.
      timer.unref();
      return () => clearInterval(timer);
    });
  app.addHook("onRequest", (request, _reply, done) => {
    const raw = request.raw;
    const socket = raw.socket as Socket | undefined;
    const hasBody =
      raw.headers["transfer-encoding"] !== undefined ||
      Number(raw.headers["content-length"] ?? 0) > 0;
    // Injected requests (tests) have no real socket and their body is already whole.
    if (!hasBody || raw.complete || typeof socket?.bytesRead !== "number") return done();
    let seen = socket.bytesRead;
    const stop = () => {
      stopWindows();
      socket.off("close", stop);
      raw.off("end", stop);
    };
    const stopWindows = everyWindow(() => {
      if (raw.complete || socket.destroyed) return stop();
      const read = socket.bytesRead;
      if (read - seen < options.minBytesPerWindow && !socket.isPaused()) {
        stop();
        request.log.warn(
          { event: "request.too_slow", ip: request.ip, bytes: read - seen },
          "request body too slow: connection closed",
        );
        socket.destroy();
        return;
      }
      seen = read;
    });
    // Most bodies end within milliseconds: stop then, not at the next tick, so a busy
    // server does not hold thousands of finished requests for up to a window.
    raw.once("end", stop);
    socket.once("close", stop);
    done();
  });
}
