import { Secret, TOTP } from "otpauth";

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_S = 30;
/** A code of the step before or after also counts: phones' clocks drift by a few seconds. */
const WINDOW = 1;

const totpOf = (secret: string, label = "", issuer = "") =>
  new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });

/** A new seed (160 bits, as RFC 4226 recommends), in base32 as apps take it typed. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an app scans from the QR code. */
export const totpUri = (secret: string, issuer: string, account: string) =>
  totpOf(secret, account, issuer).toString();

/**
 * The time step a code belongs to, when it is the right code at `now` (give or take a
 * step); null otherwise. Callers refuse a step not later than the last one accepted.
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  const totp = totpOf(secret);
  const timestamp = now.getTime();
  const delta = totp.validate({ token: code, timestamp, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}
