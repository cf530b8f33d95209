import type { User } from "@contract";
import { createContext, useContext } from "react";
import type { LoginResult } from "./api/login";

/** The identity service's user (SPEC section 3); null unless Firebase is configured. */
export type IdentityUser = {
  uid: string;
  email: string | null;
  displayName: string | null;
  emailVerified: boolean;
};

export type SetupPasswordParams = {
  email: string;
  password: string;
  name: string;
  inviteToken?: string;
};

export type SetupAdminParams = { email: string; password: string; name: string; adminKey: string };

/** SPEC section 4: the client session, {user, firebaseUser, loading}, and its transitions. */
export type Session = {
  user: User | null;
  firebaseUser: IdentityUser | null;
  /** True until the startup session check has answered. */
  loading: boolean;
  /**
   * Signs in; toasts the outcome and rethrows failures so the caller can stop its spinner.
   * An administrator with a second factor gets its pending step instead of a session.
   */
  login: (email: string, password: string, rememberMe?: boolean) => Promise<LoginResult>;
  /** A sign-in finished by its second step: the session's user, welcomed like any sign-in. */
  acceptSignIn: (user: User) => void;
  setupPassword: (params: SetupPasswordParams) => Promise<User>;
  setupAdmin: (params: SetupAdminParams) => Promise<User>;
  logout: () => Promise<void>;
};

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession must be used inside <SessionProvider>");
  return session;
}

/** The signed-in user, for screens behind the route guard. */
export function useCurrentUser(): User {
  const { user } = useSession();
  if (!user) throw new Error("useCurrentUser needs a signed-in user (render it behind RouteGuard)");
  return user;
}

/** Where a user lands after signing in (SPEC section 6: any non-admin role is a learner). */
export function homePathFor(user: Pick<User, "role">): "/admin" | "/learner" {
  return user.role === "admin" ? "/admin" : "/learner";
}
