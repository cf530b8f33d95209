import { MESSAGES } from "@contract";
import type { QueryFunctionContext } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  ApiError,
  apiJson,
  apiRequest,
  errorCodeOf,
  getErrorMessage,
  getQueryFn,
  isApiError,
  loadFailureHint,
  MalformedAnswerError,
  parseAnswer,
} from "./api-client";

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => response);
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const context = (queryKey: readonly unknown[]) =>
  ({ queryKey, signal: new AbortController().signal }) as unknown as QueryFunctionContext;

/** The error `promise` rejects with. */
async function rejectionOf(promise: unknown): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

const okSchema = z.object({ ok: z.boolean() });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("apiRequest", () => {
  it("sends JSON with its content type only when there is a body, always with cookies", async () => {
    const fetchMock = stubFetch(new Response("{}", { status: 200 }));
    await apiRequest("POST", "/api/x", { a: 1 });
    expect(fetchMock).toHaveBeenLastCalledWith("/api/x", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"a":1}',
      credentials: "include",
    });

    await apiRequest("POST", "/api/auth/logout");
    expect(fetchMock).toHaveBeenLastCalledWith("/api/auth/logout", {
      method: "POST",
      headers: {},
      body: undefined,
      credentials: "include",
    });
  });

  it("passes keepalive and the abort signal on when asked", async () => {
    const fetchMock = stubFetch(new Response("{}", { status: 200 }));
    const signal = new AbortController().signal;
    await apiRequest("POST", "/api/progress/heartbeat", { a: 1 }, { keepalive: true, signal });
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ keepalive: true, signal });
  });

  it("turns a failure into an ApiError: the spec's '<status>: <body>' message, and its status and code", async () => {
    const body = '{"message":"Invalid email or password.","code":"auth.invalid_credentials"}';
    stubFetch(new Response(body, { status: 401 }));
    const error = await rejectionOf(apiRequest("POST", "/api/auth/login", {}));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      message: `401: ${body}`,
      status: 401,
      code: "auth.invalid_credentials",
      serverMessage: "Invalid email or password.",
      path: undefined,
    });
  });

  it("keeps the refused field's path", async () => {
    const body =
      '{"message":"Too short","code":"validation.invalid_body","path":"questions.0.text"}';
    stubFetch(new Response(body, { status: 400 }));
    const error = await rejectionOf(apiRequest("POST", "/api/x", {}));
    expect(error).toMatchObject({ status: 400, code: "validation.invalid_body" });
    expect((error as ApiError).path).toBe("questions.0.text");
  });

  it("uses the status text when the body is empty, with no code", async () => {
    stubFetch(new Response(null, { status: 503, statusText: "Service Unavailable" }));
    const error = await rejectionOf(apiRequest("GET", "/api/x"));
    expect(error).toMatchObject({
      message: "503: Service Unavailable",
      status: 503,
      code: undefined,
      serverMessage: undefined,
    });
  });

  it("has no code for a body that is not the portal's JSON (a proxy's page)", async () => {
    stubFetch(new Response("<html>Bad gateway</html>", { status: 502 }));
    const error = await rejectionOf(apiRequest("GET", "/api/x"));
    expect(error).toMatchObject({
      message: "502: <html>Bad gateway</html>",
      status: 502,
      code: undefined,
      serverMessage: undefined,
    });
  });

  it("keeps the message of a body whose code this build does not know, without a code", async () => {
    stubFetch(new Response('{"message":"Newer refusal.","code":"x.newer"}', { status: 409 }));
    const error = await rejectionOf(apiRequest("POST", "/api/x"));
    expect(error).toMatchObject({ status: 409, code: undefined, serverMessage: "Newer refusal." });
  });

  it("lets a network failure through as the browser's own error, without a status", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    const error = await rejectionOf(apiRequest("GET", "/api/x"));
    expect(error).toBeInstanceOf(TypeError);
    expect(isApiError(error)).toBe(false);
    expect(error).not.toHaveProperty("status");
  });
});

describe("apiJson", () => {
  it("answers the JSON checked by the schema", async () => {
    stubFetch(new Response('{"ok":true,"extra":1}', { status: 200 }));
    await expect(apiJson(okSchema, "GET", "/api/x")).resolves.toEqual({ ok: true });
  });

  it("throws a MalformedAnswerError for an answer that fails its schema, logging the address and the issues only", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    stubFetch(new Response('{"ok":"indeed","password":"s3cret"}', { status: 200 }));
    const error = await rejectionOf(apiJson(okSchema, "GET", "/api/x"));
    expect(error).toBeInstanceOf(MalformedAnswerError);
    expect(isApiError(error)).toBe(false);
    expect(error).toMatchObject({
      message: MESSAGES.serverError,
      url: "/api/x",
      issues: [expect.objectContaining({ path: "ok", code: "invalid_type" })],
    });
    expect(log).toHaveBeenCalledOnce();
    const logged = JSON.stringify(log.mock.calls[0]);
    expect(logged).toContain("/api/x");
    expect(logged).toContain("invalid_type");
    expect(logged).not.toContain("s3cret");
    expect(logged).not.toContain("indeed");
  });

  it("throws a MalformedAnswerError for a success answer that is not JSON", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    stubFetch(new Response("<html>Login</html>", { status: 200 }));
    const error = await rejectionOf(apiJson(okSchema, "GET", "/api/x"));
    expect(error).toBeInstanceOf(MalformedAnswerError);
    expect((error as MalformedAnswerError).issues[0]).toMatchObject({ code: "invalid_json" });
  });

  it("throws the ApiError of a refusal before reading any answer", async () => {
    stubFetch(
      new Response('{"message":"Already submitted.","code":"exam.attempt_submitted"}', {
        status: 409,
      }),
    );
    const error = await rejectionOf(apiJson(okSchema, "POST", "/api/x"));
    expect(isApiError(error, "exam.attempt_submitted")).toBe(true);
  });
});

describe("parseAnswer", () => {
  it("checks an answer's text read elsewhere (XMLHttpRequest)", () => {
    expect(parseAnswer(okSchema, "/api/x", '{"ok":false}')).toEqual({ ok: false });
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => parseAnswer(okSchema, "/api/x", "{}")).toThrow(MalformedAnswerError);
  });
});

describe("getQueryFn", () => {
  it("GETs the joined query key and checks the JSON with the schema", async () => {
    const fetchMock = stubFetch(new Response('{"ok":true}', { status: 200 }));
    const data = await getQueryFn(okSchema, { on401: "throw" })(context(["/api/config"]));
    expect(data).toEqual({ ok: true });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/config");
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ credentials: "include" });
  });

  it("throws a MalformedAnswerError for an answer that fails the schema", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    stubFetch(new Response('{"ok":1}', { status: 200 }));
    const error = await rejectionOf(
      getQueryFn(okSchema, { on401: "throw" })(context(["/api/config"])),
    );
    expect(error).toBeInstanceOf(MalformedAnswerError);
    expect((error as MalformedAnswerError).url).toBe("/api/config");
  });

  it("returns null on 401 when asked to", async () => {
    stubFetch(
      new Response('{"message":"Not signed in.","code":"auth.not_signed_in"}', { status: 401 }),
    );
    await expect(
      getQueryFn(okSchema, { on401: "returnNull" })(context(["/api/auth/me"])),
    ).resolves.toBe(null);
  });

  it("throws on 401 by default", async () => {
    const body = '{"message":"Not signed in.","code":"auth.not_signed_in"}';
    stubFetch(new Response(body, { status: 401 }));
    const error = await rejectionOf(
      getQueryFn(okSchema, { on401: "throw" })(context(["/api/auth/me"])),
    );
    expect(error).toMatchObject({
      message: `401: ${body}`,
      status: 401,
      code: "auth.not_signed_in",
    });
  });
});

describe("error helpers", () => {
  const refusal = new ApiError(403, '{"message":"Access denied.","code":"auth.access_denied"}');

  it("tell refusals and their codes apart", () => {
    expect(isApiError(refusal)).toBe(true);
    expect(isApiError(refusal, "auth.access_denied")).toBe(true);
    expect(isApiError(refusal, "auth.restricted")).toBe(false);
    expect(isApiError(new TypeError("Failed to fetch"))).toBe(false);
    expect(errorCodeOf(refusal)).toBe("auth.access_denied");
    expect(errorCodeOf(new Error('403: {"code":"auth.access_denied"}'))).toBeUndefined();
    expect(errorCodeOf(undefined)).toBeUndefined();
  });

  it("give the server's message, or the generic text for an answer that could not be read", () => {
    expect(getErrorMessage(refusal)).toBe("Access denied.");
    expect(getErrorMessage(new MalformedAnswerError("/api/x", []))).toBe(MESSAGES.serverError);
  });

  it("give undefined for bodies that are not {message} JSON and for network errors", () => {
    expect(getErrorMessage(new ApiError(502, "<html>Bad gateway</html>"))).toBeUndefined();
    expect(getErrorMessage(new ApiError(400, '{"error":"x"}'))).toBeUndefined();
    expect(getErrorMessage(new ApiError(400, '{"message":"  ","code":"request.invalid"}'))).toBe(
      undefined,
    );
    expect(getErrorMessage(new TypeError("Failed to fetch"))).toBeUndefined();
    // An error that merely reads like a refusal is not one: text is never parsed.
    expect(getErrorMessage(new Error('403: {"message":"Access denied."}'))).toBeUndefined();
    expect(getErrorMessage("not an error")).toBeUndefined();
  });

  it("say 'Something went wrong' in a load failure only for an answer that could not be read", () => {
    expect(loadFailureHint(new MalformedAnswerError("/api/x", []), "Check.")).toBe(
      MESSAGES.serverError,
    );
    expect(loadFailureHint(new TypeError("Failed to fetch"), "Check.")).toBe("Check.");
    expect(loadFailureHint(refusal, "Check.")).toBe("Check.");
  });
});
