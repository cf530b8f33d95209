// The Firebase web SDK (modular, v12). Only ever reached through a dynamic import() from
// identity-client.ts, so it is a chunk of its own that deployments without Firebase never
// download, and the sign-in page's first-load JavaScript does not grow.
import { type FirebaseApp, initializeApp } from "firebase/app";
import {
  type Auth,
  browserLocalPersistence,
  browserSessionPersistence,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  signOut as firebaseSignOut,
  initializeAuth,
  onAuthStateChanged,
  setPersistence,
  signInWithEmailAndPassword,
  type User,
  type UserCredential,
} from "firebase/auth";
import type { IdentityCredential, IdentitySettings, IdentityUser } from "./identity-types";

let instance: { key: string; app: FirebaseApp; auth: Auth } | undefined;

function authFor(settings: IdentitySettings): Auth {
  const key = JSON.stringify(settings);
  if (instance?.key === key) return instance.auth;
  const app = initializeApp({
    apiKey: settings.apiKey,
    authDomain: settings.authDomain,
    projectId: settings.projectId,
  });
  // No popup/redirect resolver: email and password need none, and it keeps the chunk small.
  // Session persistence unless 'Remember me' asks for more (see signIn).
  const auth = initializeAuth(app, { persistence: [browserSessionPersistence] });
  if (settings.emulatorHost) {
    // Development and tests only: the server exposes the host only when it uses it too.
    connectAuthEmulator(auth, `http://${settings.emulatorHost}`, { disableWarnings: true });
  }
  instance = { key, app, auth };
  return auth;
}

function toIdentityUser(user: User): IdentityUser {
  return {
    uid: user.uid,
    email: user.email,
    displayName: user.displayName,
    emailVerified: user.emailVerified,
  };
}

async function credentialOf(result: UserCredential): Promise<IdentityCredential> {
  return { user: toIdentityUser(result.user), idToken: await result.user.getIdToken() };
}

export async function signIn(
  settings: IdentitySettings,
  email: string,
  password: string,
  rememberMe: boolean,
): Promise<IdentityCredential> {
  const auth = authFor(settings);
  // 'Remember me' (ARCHITECTURE section 1): the identity session lasts as long as the cookie.
  await setPersistence(auth, rememberMe ? browserLocalPersistence : browserSessionPersistence);
  return credentialOf(await signInWithEmailAndPassword(auth, email, password));
}

export async function createAccount(
  settings: IdentitySettings,
  email: string,
  password: string,
): Promise<IdentityCredential> {
  const auth = authFor(settings);
  await setPersistence(auth, browserSessionPersistence);
  return credentialOf(await createUserWithEmailAndPassword(auth, email, password));
}

export async function signOut(settings: IdentitySettings): Promise<void> {
  await firebaseSignOut(authFor(settings));
}

/** Calls back with the identity user (and a fresh ID token) on every sign-in state change. */
export function watch(
  settings: IdentitySettings,
  callback: (user: IdentityUser | null, getIdToken: () => Promise<string>) => void,
): () => void {
  return onAuthStateChanged(authFor(settings), (user) => {
    callback(user ? toIdentityUser(user) : null, () =>
      user ? user.getIdToken() : Promise.reject(new Error("No identity user")),
    );
  });
}
