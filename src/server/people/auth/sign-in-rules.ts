import { accessDenied, accountRestricted } from "./auth.errors";
import type { UserRow } from "./auth.table";

/** Learners may sign in only when pre-registered and not restricted (SPEC section 5). */
export function assertMaySignIn(user: UserRow) {
  if (user.role !== "learner") return;
  if (user.status === "restricted") throw accountRestricted();
  if (!user.isRegisteredByAdmin) throw accessDenied();
}
