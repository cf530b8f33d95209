import { z } from "zod";

/**
 * One of the signed-in user's sessions, as Profile lists them: each browser or device signed
 * in, so that one left signed in elsewhere can be ended from here.
 */
export const activeSessionSchema = z.object({
  /** An opaque handle of the session (never its cookie or the cookie's hash). */
  id: z.string(),
  /** The session of the browser asking. */
  current: z.boolean(),
  /** The browser's own description of itself at sign-in (its User-Agent), if it sent one. */
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  signedInAt: z.string(),
  /** When the session ends unless used again ('Remember me' slides it on). */
  expiresAt: z.string(),
  /** Signed in with 'Remember me'. */
  persistent: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

export const activeSessionsSchema = z.object({ sessions: z.array(activeSessionSchema) });
export type ActiveSessions = z.infer<typeof activeSessionsSchema>;

export const sessionParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{22}$/) });

export const endedSessionsSchema = z.object({ ended: z.number().int() });
