import { type ErrorBody, type ErrorCode, errorSchema, MESSAGES } from "@contract";
import type { QueryFunction } from "@tanstack/react-query";
import type { z } from "zod";

/** A body that carries at least the error answer's `message` (e.g. a code this build predates). */
const errorMessageSchema = errorSchema.pick({ message: true });

/**
 * A non-success answer. SPEC section 7 fixes its `message`: "<status>: <body text or status
 * text>". Screens decide by `status` and `code`, never by that text; `code`, `serverMessage`
 * and `path` come from the portal's `{ message, code, path? }` body and are undefined when the
 * body is not such JSON (e.g. a proxy's HTML error page).
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly serverMessage: string | undefined;
  /** The refused field of the request, for `validation.*` codes (`questions.0.text`). */
  readonly path: string | undefined;

  /** `text` is the body's text, or the status text when the body is empty. */
  constructor(status: number, text: string) {
    super(`${status}: ${text}`);
    this.status = status;
    const body = parseErrorBody(text);
    this.code = body.code;
    this.serverMessage = body.message;
    this.path = body.path;
  }
}

/**
 * The portal's error body in a refusal's text, checked with the contract's `errorSchema`:
 * all of it, only its `message` (a code this build does not know yet), or nothing (not the
 * portal's JSON).
 */
export function parseErrorBody(text: string): Partial<ErrorBody> {
  const json = parseJson(text);
  const body = errorSchema.safeParse(json);
  if (body.success) return body.data;
  const partial = errorMessageSchema.safeParse(json);
  return partial.success ? partial.data : {};
}

/** One reason an answer failed its schema: where in the answer and what was wrong. */
export type AnswerIssue = { path: string; code: string; message: string };

/**
 * A success answer that does not match the contract's schema (or is not JSON): the client
 * and the server disagree, so nothing of it is shown and the screen says "Something went
 * wrong". Its message is that generic text; `url` and `issues` say what to fix.
 */
export class MalformedAnswerError extends Error {
  override readonly name = "MalformedAnswerError";
  readonly url: string;
  readonly issues: readonly AnswerIssue[];

  constructor(url: string, issues: readonly AnswerIssue[]) {
    super(MESSAGES.serverError);
    this.url = url;
    this.issues = issues;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Checks a success answer's text: JSON matching the contract's `schema`. A mismatch is logged
 * with the address and the issues only (never the answer, which may hold personal data) and
 * thrown as a MalformedAnswerError.
 */
export function parseAnswer<S extends z.ZodType>(
  schema: S,
  url: string,
  text: string,
): z.output<S> {
  const json = parseJson(text);
  const result = json === undefined ? undefined : schema.safeParse(json);
  if (result?.success) return result.data;
  const issues = result
    ? result.error.issues.map((issue) => ({
        path: issue.path.map(String).join("."),
        code: issue.code,
        message: issue.message,
      }))
    : [{ path: "", code: "invalid_json", message: "The answer is not JSON." }];
  console.error(`Malformed answer from ${url}`, issues);
  throw new MalformedAnswerError(url, issues);
}

/** The answer's body checked by `schema`, for callers that also read its headers. */
export async function readAnswer<S extends z.ZodType>(
  schema: S,
  url: string,
  res: Response,
): Promise<z.output<S>> {
  return parseAnswer(schema, url, await res.text());
}

/** Throws the ApiError of a non-success answer (SPEC section 7). */
async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    throw new ApiError(res.status, (await res.text()) || res.statusText);
  }
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type RequestOptions = {
  signal?: AbortSignal;
  /** Lets the request outlive the page (the last heartbeat of a closing tab). */
  keepalive?: boolean;
  /**
   * Sent as Idempotency-Key: a repeat with the same key answers as the first request did
   * and creates nothing (one key per opening of a form, from useSingleSubmit).
   */
  idempotencyKey?: string | undefined;
};

/** A mutation's input with the key of the form that sends it (useSingleSubmit). */
export type Idempotent<T> = T & { idempotencyKey?: string | undefined };

/**
 * Sends a request with cookies; a body is sent as JSON only when one is given. A network
 * failure rejects with the browser's own error (no status).
 */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  const res = await fetch(url, {
    method,
    headers,
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: "include",
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.keepalive ? { keepalive: true } : {}),
  });
  await throwIfResNotOk(res);
  return res;
}

/**
 * `apiRequest`, then the answer's JSON checked by the contract's `schema`: the schema is
 * required, so no answer's type is ever asserted.
 */
export const apiJson = async <S extends z.ZodType>(
  schema: S,
  method: HttpMethod,
  url: string,
  body?: unknown,
  options?: RequestOptions,
): Promise<z.output<S>> => {
  const res = await apiRequest(method, url, body, options);
  return readAnswer(schema, url, res);
};

export type UnauthorizedBehavior = "returnNull" | "throw";

/**
 * Query function for reads: GET the URL made of the query key's segments and check the JSON
 * with `schema`. By default a 401 throws; `on401: "returnNull"` turns it into a `null` result.
 */
export function getQueryFn<S extends z.ZodType>(
  schema: S,
  options: { on401: "returnNull" },
): QueryFunction<z.output<S> | null>;
export function getQueryFn<S extends z.ZodType>(
  schema: S,
  options: { on401: "throw" },
): QueryFunction<z.output<S>>;
export function getQueryFn<S extends z.ZodType>(
  schema: S,
  { on401 }: { on401: UnauthorizedBehavior },
): QueryFunction<z.output<S> | null> {
  return async ({ queryKey, signal }) => {
    const url = queryKey.join("/");
    const res = await fetch(url, { credentials: "include", signal });
    if (on401 === "returnNull" && res.status === 401) return null;
    await throwIfResNotOk(res);
    return readAnswer(schema, url, res);
  };
}

/** Whether `error` is a refusal from the server, optionally with this `code`. */
export function isApiError(error: unknown, code?: ErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** The `code` of a refusal from the server; undefined for anything else. */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

/**
 * The text a toast or notice shows for a failure: the server's `message` for a refusal, the
 * generic "Something went wrong" for an answer the client could not read. Undefined for
 * network failures and bodies that are not the portal's JSON, so callers fall back to the
 * spec's description.
 */
export function getErrorMessage(error: unknown): string | undefined {
  if (error instanceof MalformedAnswerError) return error.message;
  if (!(error instanceof ApiError)) return undefined;
  return error.serverMessage?.trim() ? error.serverMessage : undefined;
}

/**
 * The hint of a generic "could not load" notice: "Something went wrong" when the answer
 * came but could not be read (checking the connection would not help), else `fallback`.
 */
export function loadFailureHint(error: unknown, fallback: string): string {
  return error instanceof MalformedAnswerError ? error.message : fallback;
}
