import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { MESSAGES, type Role, SIGNED_IN_COOKIE } from "../../contract";
import type { ResolvedSession } from "../people";
import { forbidden, unauthorized } from "./errors";

export const SESSION_COOKIE = "credo_session";
/**
 * The name over HTTPS (production): a `__Host-` cookie must be Secure, on path / and
 * without Domain, so no subdomain or plain-http page can plant or overwrite it (ASVS 3.3.1).
 */
const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const cookieName = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in session, or null. Resolved once per request from the cookie. */
    session: ResolvedSession | null;
  }
}

export interface SessionPluginOptions {
  resolve(secret: string): Promise<ResolvedSession | null>;
  secureCookies: boolean;
}

/**
 * Whether a browser says the request comes from a page of another origin than the portal's,
 * other than the user's own navigation to it (a link followed, an address typed).
 */
const fromAnotherOrigin = (request: FastifyRequest) => {
  const site = request.headers["sec-fetch-site"];
  return (
    (site === "same-site" || site === "cross-site") &&
    request.headers["sec-fetch-mode"] !== "navigate"
  );
};

/** Reads the session cookie on every request (requires @fastify/cookie). */
export function registerSessions(app: FastifyInstance, options: SessionPluginOptions) {
  app.decorateRequest("session", null);
  app.addHook("onRequest", async (request, reply) => {
    // A request another origin's page made (package content on the content origin, which
    // browsers count as the same site) is not the signed-in user's: its cookie is ignored,
    // so such a page reads and changes nothing as them (SECURITY.md, "Package content").
    if (fromAnotherOrigin(request)) return;
    const secret = request.cookies[cookieName(options.secureCookies)];
    if (!secret) {
      // The session cookie died with the browser session or was removed: so does the hint.
      if (request.cookies[SIGNED_IN_COOKIE]) clearSignedInHint(reply, options.secureCookies);
      return;
    }
    // Ids are 43 base64url characters; anything else is not worth a database round trip.
    request.session = /^[A-Za-z0-9_-]{43}$/.test(secret) ? await options.resolve(secret) : null;
    if (!request.session) clearSessionCookie(reply, options.secureCookies);
    // The browser keeps a persistent cookie only until its Expires: slide it with the session.
    else if (request.session.renewed)
      setSessionCookie(reply, { secret, ...request.session }, options.secureCookies);
  });
}

export function setSessionCookie(
  reply: FastifyReply,
  session: { secret: string; persistent: boolean; expiresAt: Date },
  secure: boolean,
) {
  reply.setCookie(cookieName(secure), session.secret, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    // Without 'Remember me' the cookie dies with the browser session.
    ...(session.persistent ? { expires: session.expiresAt } : {}),
  });
  // The client's hint lives exactly as long; it is no proof of anything (SIGNED_IN_COOKIE).
  reply.setCookie(SIGNED_IN_COOKIE, "1", {
    path: "/",
    httpOnly: false,
    sameSite: "lax",
    secure,
    ...(session.persistent ? { expires: session.expiresAt } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(cookieName(secure), { path: "/", httpOnly: true, sameSite: "lax", secure });
  clearSignedInHint(reply, secure);
}

function clearSignedInHint(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(SIGNED_IN_COOKIE, { path: "/", httpOnly: false, sameSite: "lax", secure });
}

/** preHandler: any signed-in user. */
export async function requireUser(request: FastifyRequest) {
  if (!request.session) throw unauthorized("auth.not_signed_in", MESSAGES.notSignedIn);
}

/** A preHandler that lets through a signed-in user of one role; it names the role it asks for. */
export interface RoleGuard {
  (request: FastifyRequest): Promise<void>;
  readonly role: Role;
}

/** preHandler factory: a signed-in user with this role (403 for other roles). */
export function requireRole(role: Role): RoleGuard {
  const guard = async (request: FastifyRequest) => {
    if (!request.session) throw unauthorized("auth.not_signed_in", MESSAGES.notSignedIn);
    if (request.session.user.role !== role) throw forbidden("auth.forbidden", MESSAGES.forbidden);
  };
  return Object.assign(guard, { role });
}

export const isRoleGuard = (hook: unknown): hook is RoleGuard =>
  typeof hook === "function" && "role" in hook;

/** The signed-in session inside a handler guarded by requireUser/requireRole. */
export function sessionOf(request: FastifyRequest): ResolvedSession {
  if (!request.session) throw unauthorized("auth.not_signed_in", MESSAGES.notSignedIn);
  return request.session;
}

/** The signed-in user as the audit trail records who acted: their id and role. */
export function actorOf(request: FastifyRequest) {
  const { id, role } = sessionOf(request).user;
  return { id, role };
}
