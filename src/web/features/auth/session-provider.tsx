import { TOASTS, type User } from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "../../components/ui/use-toast";
import { getErrorMessage } from "../../lib/api-client";
import { useAppConfig, useIdentitySettings } from "../../lib/app-config";
import { getMeQueryOptions, meQueryKey, useMe } from "./api/get-me";
import { type LoginResult, login as loginRequest } from "./api/login";
import { logout as logoutRequest } from "./api/logout";
import { setupAdmin as setupAdminRequest } from "./api/setup-admin";
import { demoFirebaseUid, setupPassword as setupPasswordRequest } from "./api/setup-password";
import { loadIdentity } from "./identity/identity-client";
import {
  type IdentityUser,
  type Session,
  SessionContext,
  type SetupAdminParams,
  type SetupPasswordParams,
} from "./session-context";

/**
 * Holds the session of SPEC section 4. The user lives in the TanStack Query cache under
 * the GET /api/auth/me key, so screens that update the user (profile) stay in step.
 *
 * With Firebase configured (`useAppConfig().firebase`), sign-in and password setup go
 * through the identity service and send its ID token; any identity-service failure is
 * logged and the server-only path is tried (SPEC section 4). An identity user that
 * appears while nobody is signed in is synced through POST /api/auth/firebase-sync.
 * Without Firebase, `firebaseUser` stays null and the SDK is never downloaded.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const me = useMe();
  const { firebase } = useAppConfig();
  const identitySettings = useIdentitySettings();
  const [firebaseUser, setFirebaseUser] = useState<IdentityUser | null>(null);
  // While login or setup runs, the identity listener must not start a second session.
  const busy = useRef(false);
  const currentUser = useRef<User | null>(null);
  currentUser.current = me.data ?? null;

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

  /** Firebase mode goes through the identity service (identity-flows.ts, loaded lazily). */
  const loginRequestFor = useCallback(
    async (email: string, password: string, rememberMe: boolean): Promise<LoginResult> => {
      const settings = await identitySettings();
      if (!settings) return loginRequest({ email, password, rememberMe });
      return (await loadIdentity(settings)).login(settings, { email, password, rememberMe });
    },
    [identitySettings],
  );

  const login = useCallback(
    async (email: string, password: string, rememberMe = false) => {
      busy.current = true;
      try {
        const result = await loginRequestFor(email, password, rememberMe);
        if ("user" in result) {
          setSessionUser(result.user);
          toast({ title: TOASTS.loginSuccess, description: TOASTS.welcomeBack(result.user.name) });
        }
        return result;
      } catch (error) {
        toast({
          variant: "destructive",
          title: TOASTS.loginFailed,
          description: getErrorMessage(error) ?? TOASTS.loginFailedFallback,
        });
        throw error;
      } finally {
        busy.current = false;
      }
    },
    [setSessionUser, loginRequestFor],
  );

  const acceptSignIn = useCallback(
    (user: User) => {
      setSessionUser(user);
      toast({ title: TOASTS.loginSuccess, description: TOASTS.welcomeBack(user.name) });
    },
    [setSessionUser],
  );

  const setupPassword = useCallback(
    async ({ email, password, name, inviteToken }: SetupPasswordParams) => {
      busy.current = true;
      try {
        const body = { email, password, name, ...(inviteToken ? { inviteToken } : {}) };
        const settings = await identitySettings();
        const user = settings
          ? await (await loadIdentity(settings)).setupPassword(settings, body)
          : await setupPasswordRequest({ ...body, firebaseUid: demoFirebaseUid() });
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
      } finally {
        busy.current = false;
      }
    },
    [setSessionUser, identitySettings],
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
    const settings = await identitySettings();
    if (settings) {
      // SPEC section 4: sign out of the identity service first, so it cannot sync back in.
      await loadIdentity(settings)
        .then((identity) => identity.signOut(settings))
        .catch((error) => console.warn("Identity service sign-out failed.", error));
    }
    let providerSignOut: string | undefined;
    try {
      providerSignOut = await logoutRequest();
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
    setFirebaseUser(null);
    toast({ title: TOASTS.loggedOut });
    // Signed in through an identity provider with single logout: end that session too.
    if (providerSignOut) window.location.assign(providerSignOut);
  }, [setSessionUser, identitySettings]);

  // SPEC section 4: listen to the identity service once the server session is known; an
  // identity user without a current user is synced with the server.
  const sessionKnown = !me.isPending;
  useEffect(() => {
    if (!firebase || !sessionKnown) return;
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    loadIdentity(firebase)
      .then((identity) =>
        identity.watchAndSync(firebase, {
          onIdentityUser: setFirebaseUser,
          shouldSync: () => !currentUser.current && !busy.current,
          onSynced: setSessionUser,
        }),
      )
      .then((stop) => {
        if (cancelled) stop();
        else unsubscribe = stop;
      })
      .catch((error) => console.warn("Identity service unavailable.", error));
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [firebase, sessionKnown, setSessionUser]);

  const value = useMemo<Session>(
    () => ({
      user: me.data ?? null,
      firebaseUser,
      loading: me.isPending,
      login,
      acceptSignIn,
      setupPassword,
      setupAdmin,
      logout,
    }),
    [me.data, me.isPending, firebaseUser, login, acceptSignIn, setupPassword, setupAdmin, logout],
  );

  return <SessionContext value={value}>{children}</SessionContext>;
}

/** Web-only text: the spec shows no failure toast for logout. */
const LOGOUT_FAILED = "Logout failed";
