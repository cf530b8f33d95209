import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { UserRow } from "./auth.table";

/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a browser
 * that signed in to an account before carries a token for that account, and its sign-in
 * attempts are counted on their own. Guesses from elsewhere can then slow new browsers down
 * for the account, but never lock the owner out on a browser they have used.
 *
 * The token is `nonce.mac`, the MAC keyed with the account's password hash, which never
 * leaves the server: nobody can forge one, and a password change retires them all.
 */
const DEVICE_COOKIE = "credo_device";
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

const cookieName = (secure: boolean) => (secure ? `__Host-${DEVICE_COOKIE}` : DEVICE_COOKIE);

function mac(user: UserRow, nonce: string): Buffer | null {
  if (!user.passwordHash) return null;
  return createHmac("sha256", user.passwordHash).update(`${user.email}\n${nonce}`).digest();
}

/** A new device token for the account. */
export function issueDeviceToken(user: UserRow): string | null {
  const nonce = randomBytes(16).toString("base64url");
  const signature = mac(user, nonce);
  return signature ? `${nonce}.${signature.toString("base64url")}` : null;
}

/** The device's nonce when the token was issued for this account (and its password); else null. */
export function verifyDeviceToken(token: string | undefined, user: UserRow | undefined) {
  if (!token || !user) return null;
  const [nonce, given] = token.split(".");
  if (!nonce || !given || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return null;
  const expected = mac(user, nonce);
  const actual = Buffer.from(given, "base64url");
  return expected && actual.length === expected.length && timingSafeEqual(actual, expected)
    ? nonce
    : null;
}

export const deviceTokenOf = (request: FastifyRequest, secure: boolean) =>
  request.cookies[cookieName(secure)];

export function setDeviceCookie(reply: FastifyReply, token: string, secure: boolean) {
  reply.setCookie(cookieName(secure), token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
}
