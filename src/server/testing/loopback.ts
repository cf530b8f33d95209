import { type IncomingHttpHeaders, request } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll } from "vitest";
import type { TestContext } from "./test-app";

/** A cookie as a response set it, with the attributes the security tests look at. */
interface SetCookie {
  name: string;
  value: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: string;
  path?: string;
  maxAge?: number;
}

export interface LoopbackResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
  cookies: SetCookie[];
  json<T = unknown>(): T;
}

interface LoopbackRequest {
  method?: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/** Sends one request from a client socket bound to `address`. */
export type SendFrom = (address: string, options: LoopbackRequest) => Promise<LoopbackResponse>;

function parseSetCookie(line: string): SetCookie {
  const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
  const equals = pair.indexOf("=");
  const cookie: SetCookie = {
    name: pair.slice(0, equals),
    value: pair.slice(equals + 1),
    httpOnly: false,
    secure: false,
  };
  for (const attribute of attributes) {
    const [key = "", value = ""] = attribute.split("=");
    const name = key.toLowerCase();
    if (name === "httponly") cookie.httpOnly = true;
    else if (name === "secure") cookie.secure = true;
    else if (name === "samesite") cookie.sameSite = value;
    else if (name === "path") cookie.path = value;
    else if (name === "max-age") cookie.maxAge = Number(value);
  }
  return cookie;
}

/**
 * The test app listening on 127.0.0.1 for real clients, each on its own loopback address
 * (127.0.0.2, 127.0.0.3, …: Linux routes all of 127/8 to the loopback interface). With
 * TRUST_PROXY off, the address the server sees is the socket's own, as in production, and
 * requests in flight together really are concurrent. The Host header is the app's public
 * host unless a test sends another.
 */
export function useLoopback(ctx: TestContext, publicHost = "localhost:5000"): SendFrom {
  let port = 0;
  beforeAll(async () => {
    await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  return (address, { method = "GET", url, payload, headers = {} }) =>
    new Promise((resolve, reject) => {
      const body = payload === undefined ? undefined : JSON.stringify(payload);
      const req = request(
        {
          host: "127.0.0.1",
          port,
          localAddress: address,
          method,
          path: url,
          agent: false,
          headers: {
            host: publicHost,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({
              statusCode: res.statusCode ?? 0,
              headers: res.headers,
              body: text,
              cookies: (res.headers["set-cookie"] ?? []).map(parseSetCookie),
              json: <T>() => JSON.parse(text) as T,
            });
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
}

/** A cookie as a Cookie header value, from a response that set it. */
export function cookieHeader(response: LoopbackResponse, name: string): string | undefined {
  const cookie = response.cookies.find((c) => c.name === name);
  return cookie ? `${name}=${cookie.value}` : undefined;
}
