import { createHash, randomInt } from "node:crypto";
import { RECOVERY_CODE_COUNT } from "../../../contract";

/** No 0/o or 1/l: the codes are written down and typed back. */
const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** Ten letters from 32 (50 bits): too many to guess within the sign-in throttle. */
function newCode(): string {
  let code = "";
  for (let i = 0; i < 10; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Only digests are stored; the contract's schema has already dropped the dash and case. */
export const hashRecoveryCode = (normalised: string) =>
  createHash("sha256").update(normalised.replace(/-/g, "")).digest("hex");

/** A fresh set, as shown once, with the digests to store. */
export function newRecoveryCodes() {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  return { codes, hashes: codes.map(hashRecoveryCode) };
}
