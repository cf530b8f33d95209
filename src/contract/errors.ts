import { z } from "zod";
import { ASSESSMENTS_ERROR_CODES } from "./assessments";
import { AUTH_ERROR_CODES } from "./auth";
import { CAPTIONS_ERROR_CODES } from "./captions";
import { CERTIFICATES_ERROR_CODES } from "./certificates";
import { COURSES_ERROR_CODES } from "./courses";
import { CREDIT_ERROR_CODES } from "./credit";
import { ENROLLMENTS_ERROR_CODES } from "./enrollments";
import { LEARNERS_ERROR_CODES } from "./learners-import";
import { REMINDERS_ERROR_CODES } from "./reminders";
import { WATCHING_ERROR_CODES } from "./watching";

/**
 * Every error answer's `code`, with the HTTP status it is sent with: a stable dotted
 * identifier that clients decide by (the message is for people and may be reworded). The
 * first segment names the feature that raises it. Each feature declares its codes once,
 * beside its messages in its own contract file; the portal-wide ones (the request itself,
 * validation, the server) are here. The server cannot raise an undeclared code (or send
 * one with another status), and a client can switch over them exhaustively.
 */
export const ERROR_CODES = {
  // The request itself: its address, host, origin, media type and size.
  "request.address_too_long": 414,
  "request.cross_site": 403,
  "request.invalid": 400,
  "request.invalid_address": 400,
  "request.invalid_json": 400,
  "request.json_required": 415,
  "request.not_found": 404,
  "request.throttled": 429,
  "request.too_large": 413,
  "request.wrong_host": 421,
  // A body, query, parameter or cursor the route's schema refuses (with `path`).
  "validation.invalid_body": 400,
  "validation.invalid_cursor": 400,
  "validation.invalid_headers": 400,
  "validation.invalid_params": 400,
  "validation.invalid_query": 400,
  "validation.invalid_range": 400,
  // Text the portal does not store.
  "input.unicode": 400,
  // The portal cannot answer now.
  "system.error": 500,
  "system.unavailable": 503,
  // Expensive answers (reports, exports).
  "downloads.throttled": 429,
  ...AUTH_ERROR_CODES,
  ...LEARNERS_ERROR_CODES,
  ...COURSES_ERROR_CODES,
  ...ENROLLMENTS_ERROR_CODES,
  ...WATCHING_ERROR_CODES,
  ...CAPTIONS_ERROR_CODES,
  ...ASSESSMENTS_ERROR_CODES,
  ...CREDIT_ERROR_CODES,
  ...CERTIFICATES_ERROR_CODES,
  ...REMINDERS_ERROR_CODES,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes sent with HTTP status `S`. */
export type ErrorCodeOf<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C] extends S ? C : never;
}[ErrorCode];

/** Every declared code. */
export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/**
 * Every error answer: a message for people, a code for programs, and for a refused field
 * of a request the field's dotted `path` (`questions.0.text`).
 */
export const errorSchema = z.object({
  message: z.string(),
  code: z.enum(ALL_ERROR_CODES),
  path: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorSchema>;
