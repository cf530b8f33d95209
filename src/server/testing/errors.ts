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
