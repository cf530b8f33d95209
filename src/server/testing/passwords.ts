import { createPasswordHasher } from "../people/auth/passwords";

/**
 * The app under test hashes at 1/32 of the production scrypt cost (N=2^10): sign-in,
 * set-up and reset run their real code, without half a minute of deliberate slowness per
 * file. The hashing tests themselves keep the production parameters.
 */
export const testPasswords = createPasswordHasher({ N: 2 ** 10, r: 8, p: 1 });
