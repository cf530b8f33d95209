import type { QueryFunctionContext } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiRequest, getErrorMessage, getErrorStatus, getQueryFn } from "./api-client";

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => response);
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const context = (queryKey: readonly unknown[]) =>
  ({ queryKey, signal: new AbortController().signal }) as unknown as QueryFunctionContext;

afterEach(() => vi.unstubAllGlobals());

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

  it("turns a failure into '<status>: <body>'", async () => {
    stubFetch(new Response('{"message":"Invalid email or password."}', { status: 401 }));
    await expect(apiRequest("POST", "/api/auth/login", {})).rejects.toThrow(
      '401: {"message":"Invalid email or password."}',
    );
  });

  it("uses the status text when the body is empty", async () => {
    stubFetch(new Response(null, { status: 503, statusText: "Service Unavailable" }));
    await expect(apiRequest("GET", "/api/x")).rejects.toThrow("503: Service Unavailable");
  });
});

describe("getQueryFn", () => {
  it("GETs the joined query key and parses JSON", async () => {
    const fetchMock = stubFetch(new Response('{"ok":true}', { status: 200 }));
    const data = await getQueryFn<{ ok: boolean }>({ on401: "throw" })(context(["/api/config"]));
    expect(data).toEqual({ ok: true });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/config");
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ credentials: "include" });
  });

  it("returns null on 401 when asked to", async () => {
    stubFetch(new Response('{"message":"Not signed in."}', { status: 401 }));
    await expect(getQueryFn({ on401: "returnNull" })(context(["/api/auth/me"]))).resolves.toBe(
      null,
    );
  });

  it("throws on 401 by default", async () => {
    stubFetch(new Response('{"message":"Not signed in."}', { status: 401 }));
    await expect(getQueryFn({ on401: "throw" })(context(["/api/auth/me"]))).rejects.toThrow(
      /^401: /,
    );
  });
});

describe("error helpers", () => {
  it("extracts the server's message and status", () => {
    const error = new Error('403: {"message":"Access denied."}');
    expect(getErrorMessage(error)).toBe("Access denied.");
    expect(getErrorStatus(error)).toBe(403);
  });

  it("gives undefined for bodies that are not {message} JSON and for network errors", () => {
    expect(getErrorMessage(new Error("502: <html>Bad gateway</html>"))).toBeUndefined();
    expect(getErrorMessage(new Error('400: {"error":"x"}'))).toBeUndefined();
    expect(getErrorMessage(new TypeError("Failed to fetch"))).toBeUndefined();
    expect(getErrorStatus(new TypeError("Failed to fetch"))).toBeUndefined();
    expect(getErrorMessage("not an error")).toBeUndefined();
  });
});
