import type { FastifyReply, FastifyRequest } from "fastify";
import type { SecretBox } from "../../lib/secret-box";

/**
 * The binding cookie: a random secret this browser holds while it signs on elsewhere. Only
 * its hash is kept with the request, so an answer carried into another browser (a link sent
 * to a victim, a stolen `state`) finds no request there.
 */
const BINDING_COOKIE = "credo_sign_on";
const BINDING_PATH = "/api/sign-on";
export const SIGN_ON_REQUEST_TTL_MS = 10 * 60 * 1000;

export function bindingOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[BINDING_COOKIE];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

export function setBindingCookie(reply: FastifyReply, value: string, secure: boolean) {
  reply.setCookie(BINDING_COOKIE, value, {
    path: BINDING_PATH,
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: SIGN_ON_REQUEST_TTL_MS / 1000,
  });
}

/**
 * The provider session behind this browser's Credo session, sealed, for single logout:
 * sent only to the sign-out route, and honoured only with the session it was made for.
 */
const PROVIDER_SESSION_COOKIE = "credo_sign_on_session";
const PROVIDER_SESSION_PATH = "/api/auth";

export interface ProviderSession {
  providerId: string;
  subject: string;
  sessionIndex?: string;
  /** The Credo session (its id hash) that this provider session signed in. */
  credoSession: string;
}

export function setProviderSessionCookie(
  reply: FastifyReply,
  box: SecretBox,
  session: ProviderSession,
  secure: boolean,
) {
  reply.setCookie(PROVIDER_SESSION_COOKIE, box.seal(JSON.stringify(session)), {
    path: PROVIDER_SESSION_PATH,
    httpOnly: true,
    sameSite: "lax",
    secure,
  });
}

export function providerSessionOf(
  request: FastifyRequest,
  box: SecretBox,
): ProviderSession | undefined {
  const sealed = request.cookies[PROVIDER_SESSION_COOKIE];
  if (!sealed) return undefined;
  try {
    return JSON.parse(box.open(sealed)) as ProviderSession;
  } catch {
    return undefined;
  }
}

export function clearProviderSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(PROVIDER_SESSION_COOKIE, {
    path: PROVIDER_SESSION_PATH,
    httpOnly: true,
    sameSite: "lax",
    secure,
  });
}
