import { expect } from "vitest";
import { ERROR_CODES, type ErrorBody, errorSchema } from "../../contract";

/**
 * The body is the API's one error shape, `{ message, code, path? }`, and nothing more; its
 * code is declared, with the status it was sent with. Returns the body.
 */
export function expectErrorBody(
  response: { statusCode: number; json(): unknown },
  label = "",
): ErrorBody {
  const parsed = errorSchema.strict().safeParse(response.json());
  expect(parsed.error?.issues, `${label} ${JSON.stringify(response.json())}`).toBeUndefined();
  const body = parsed.data!;
  // Fastify's other client errors keep their own status under one code.
  if (body.code !== "request.invalid") {
    expect(ERROR_CODES[body.code], `${label} ${body.code}`).toBe(response.statusCode);
  }
  return body;
}

/** A validator's own wording, which no answer may carry (contract/validation-messages.ts). */
const VALIDATOR_WORDING =
  /Invalid input|Too big|Too small|expected .* received|Unrecognized key|[<>]=/;

/**
 * A refusal of one field of the request: its `path` names the field (or a part of it) and
 * its message is in people's words. Returns the body.
 */
export function expectFieldRefused(
  response: { statusCode: number; json(): unknown },
  field: string,
): ErrorBody {
  const body = expectErrorBody(response, field);
  const named = body.path === field || Boolean(body.path?.startsWith(`${field}.`));
  expect(named, `${field}: ${JSON.stringify(body)}`).toBe(true);
  expect(body.message, field).not.toMatch(VALIDATOR_WORDING);
  return body;
}

/** A refusal as "<field path>: <message>": the field for programs, then the words for people. */
export function refusalText(response: { json(): unknown }): string {
  const body = response.json() as { path?: string; message: string };
  return `${body.path ?? ""}: ${body.message}`;
}
