import { accessDenied, accountRestricted } from "./auth.errors";
import type { UserRow } from "./auth.table";

/**
 * Why an account may not sign in, whatever the way in (password, identity service, single
 * sign-on): learners only when pre-registered and not restricted (SPEC section 5).
 */
export function signInRefusal(user: UserRow): "restricted" | "not_registered" | undefined {
  if (user.role !== "learner") return undefined;
  if (user.status === "restricted") return "restricted";
  if (!user.isRegisteredByAdmin) return "not_registered";
  return undefined;
}

/** Refuses an account that may not sign in with the portal's own sign-in errors. */
export function assertMaySignIn(user: UserRow) {
  const refusal = signInRefusal(user);
  if (refusal === "restricted") throw accountRestricted();
  if (refusal === "not_registered") throw accessDenied();
}
