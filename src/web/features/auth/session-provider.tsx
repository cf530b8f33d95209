import { TOASTS, type User } from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useMemo } from "react";
import { toast } from "../../components/ui/use-toast";
import { getErrorMessage } from "../../lib/api-client";
import { getMeQueryOptions, meQueryKey, useMe } from "./api/get-me";
import { login as loginRequest } from "./api/login";
import { logout as logoutRequest } from "./api/logout";
import { setupAdmin as setupAdminRequest } from "./api/setup-admin";
import { demoFirebaseUid, setupPassword as setupPasswordRequest } from "./api/setup-password";
import {
  type Session,
  SessionContext,
  type SetupAdminParams,
  type SetupPasswordParams,
} from "./session-context";

/**
 * Holds the session of SPEC section 4. The user lives in the TanStack Query cache under
 * the GET /api/auth/me key, so screens that update the user (profile) stay in step.
 *
 * The identity service (Firebase) arrives in a later issue: it will add an identity
 * listener here that syncs through POST /api/auth/firebase-sync, driven by
 * `useAppConfig().firebase`. Until then `firebaseUser` is always null and every call
 * takes the server-only (demo-mode) path.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const me = useMe();

  /** A new session: drop data cached for whoever was signed in before, then set the user. */
  const setSessionUser = useCallback(
    (user: User | null) => {
      queryClient.removeQueries({
        predicate: (query) =>
          query.queryKey[0] !== meQueryKey[0] && query.queryKey[0] !== "/api/config",
      });
      queryClient.setQueryData(getMeQueryOptions().queryKey, user);
    },
    [queryClient],
  );

  const login = useCallback(
    async (email: string, password: string, rememberMe = false) => {
      try {
        const user = await loginRequest({ email, password, rememberMe });
        setSessionUser(user);
        toast({ title: TOASTS.loginSuccess, description: TOASTS.welcomeBack(user.name) });
        return user;
      } catch (error) {
        toast({
          variant: "destructive",
          title: TOASTS.loginFailed,
          description: getErrorMessage(error) ?? TOASTS.loginFailedFallback,
        });
        throw error;
      }
    },
    [setSessionUser],
  );

  const setupPassword = useCallback(
    async ({ email, password, name, inviteToken }: SetupPasswordParams) => {
      try {
        const user = await setupPasswordRequest({
          email,
          password,
          name,
          firebaseUid: demoFirebaseUid(),
          ...(inviteToken ? { inviteToken } : {}),
        });
        setSessionUser(user);
        toast({ title: TOASTS.setupSuccess });
        return user;
      } catch (error) {
        toast({
          variant: "destructive",
          title: TOASTS.setupFailed,
          description: getErrorMessage(error) ?? TOASTS.setupFailedFallback,
        });
        throw error;
      }
    },
    [setSessionUser],
  );

  const setupAdmin = useCallback(
    async (params: SetupAdminParams) => {
      try {
        const user = await setupAdminRequest(params);
        setSessionUser(user);
        toast({ title: TOASTS.adminSetupSuccess });
        return user;
      } catch (error) {
        toast({
          variant: "destructive",
          title: TOASTS.adminSetupFailed,
          description: getErrorMessage(error) ?? TOASTS.setupFailedFallback,
        });
        throw error;
      }
    },
    [setSessionUser],
  );

  const logout = useCallback(async () => {
    try {
      await logoutRequest();
    } catch (error) {
      // The cookie may still be valid, so keep the user signed in and say so.
      toast({
        variant: "destructive",
        title: LOGOUT_FAILED,
        description: getErrorMessage(error) ?? TOASTS.setupFailedFallback,
      });
      throw error;
    }
    setSessionUser(null);
    toast({ title: TOASTS.loggedOut });
  }, [setSessionUser]);

  const value = useMemo<Session>(
    () => ({
      user: me.data ?? null,
      firebaseUser: null,
      loading: me.isPending,
      login,
      setupPassword,
      setupAdmin,
      logout,
    }),
    [me.data, me.isPending, login, setupPassword, setupAdmin, logout],
  );

  return <SessionContext value={value}>{children}</SessionContext>;
}

/** Web-only text: the spec shows no failure toast for logout. */
const LOGOUT_FAILED = "Logout failed";
