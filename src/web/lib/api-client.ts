import type { QueryFunction } from "@tanstack/react-query";

/**
 * SPEC section 7: any non-success response becomes an Error whose message is
 * "<status>: <body text or status text>".
 */
async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Sends a request with cookies; a body is sent as JSON only when one is given. */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  body?: unknown,
): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: body !== undefined ? { "Content-Type": "application/json" } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: "include",
  });
  await throwIfResNotOk(res);
  return res;
}

/** `apiRequest` followed by JSON parsing of the answer. */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  return (await res.json()) as T;
}

export type UnauthorizedBehavior = "returnNull" | "throw";

/**
 * Query function for reads: GET the URL made of the query key's segments and parse JSON.
 * By default a 401 throws; `on401: "returnNull"` turns it into a `null` result.
 */
export function getQueryFn<T>(options: { on401: "returnNull" }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: "throw" }): QueryFunction<T>;
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join("/"), { credentials: "include", signal });
    if (on401 === "returnNull" && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** The HTTP status of an error thrown by `apiRequest`, or undefined for network failures. */
export function getErrorStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^(\d{3}): /.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/**
 * The server's `{"message": "..."}` from an error thrown by `apiRequest`, for toasts.
 * Returns undefined for network failures and bodies that are not such JSON, so callers
 * fall back to the spec's generic description.
 */
export function getErrorMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return undefined;
  try {
    const parsed: unknown = JSON.parse(match[1] ?? "");
    if (parsed && typeof parsed === "object" && "message" in parsed) {
      const message = (parsed as { message: unknown }).message;
      if (typeof message === "string" && message.trim()) return message;
    }
  } catch {
    // Not JSON (e.g. a proxy's HTML error page): the caller shows its fallback text.
  }
  return undefined;
}
