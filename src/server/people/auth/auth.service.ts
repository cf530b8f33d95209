import type { ProfileBody, SetupAdminBody, SetupPasswordBody } from "../../../contract";
import type { Database } from "../../db/client";
import type { IdentityService } from "../../identity/firebase-identity";
import type { Mailer } from "../../mail/mailer";
import type { MailIssuer } from "../../mail/templates";
import { invalidField } from "../../plugins/errors";
import { createAccountMails } from "./account-mails";
import {
  accessDenied,
  accountRestricted,
  adminSetupDisabled,
  currentPasswordRequired,
  currentPasswordWrong,
  emailTaken,
  identityInUse,
  invalidAdminKey,
  invalidCredentials,
  invitationInvalid,
  invitationRequired,
  notYourAccount,
  passwordAlreadySet,
} from "./auth.errors";
import { createAuthRepository } from "./auth.repository";
import type { UserRow } from "./auth.table";
import { issueDeviceToken, verifyDeviceToken } from "./device-cookies";
import { createIdentityBinding } from "./identity-binding";
import { createLearnerAccounts } from "./learner-accounts";
import { createLearnerLifecycle } from "./learner-lifecycle";
import type { LoginThrottle } from "./login-throttle";
import { createPasswordReset } from "./password-reset";
import type { PasswordHasher } from "./passwords";
import type { SessionsService } from "./sessions.service";
import type { SignInHandOver } from "./sign-in-hand-over";
import { assertMaySignIn, signInRefusal } from "./sign-in-rules";
import { hashSecret, safeEqual } from "./tokens";

/** The account row the service hands to the other people features (never sent as is). */
export type { UserRow };

export interface AuthServiceDeps {
  db: Database;
  sessions: SessionsService;
  throttle: LoginThrottle;
  passwords: PasswordHasher;
  passwordSetupMode: "open" | "invite";
  /** The configured or generated admin key; undefined when admin setup is disabled. */
  adminSetupKey: string | undefined;
  /** A generated key only works until the first administrator exists. */
  adminSetupKeyIsOneTime: boolean;
  mailer: Mailer;
  /** The organisation feature: who mails come from (the product name until it is set). */
  issuer: { mailIssuer(): Promise<MailIssuer> };
  /** Links in emails are built from PUBLIC_URL, never from a request's Host header. */
  publicUrl: string;
  log: { error(obj: object, msg: string): void };
  /** Firebase Auth, or the not-configured service. */
  identity: IdentityService;
  /** Administrators' second factor: a right password may still wait for a second step. */
  handOver?: SignInHandOver;
}

/** Where a request comes from: used for throttling and recorded on the session. */
export interface ClientInfo {
  ip: string;
  userAgent?: string;
  /** The hash of the session the browser already holds, replaced at sign-in. */
  currentSession?: string;
  /** The browser's device cookie, if any (device-cookies.ts). */
  deviceToken?: string;
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, sessions, throttle, passwords } = deps;
  const repo = createAuthRepository(db);
  const { mirror, verifiedIdentity, boundElsewhere, refuseTakenUid, userForIdentity } =
    createIdentityBinding({
      repo,
      identity: deps.identity,
      forgetUser: (userId) => sessions.forgetUser(userId),
      log: deps.log,
    });

  async function startSession(user: UserRow, client: ClientInfo, persistent: boolean) {
    const session = await sessions.create({
      userId: user.id,
      persistent,
      userAgent: client.userAgent,
      ip: client.ip,
      replacing: client.currentSession,
    });
    return { user, session };
  }

  const { deliver, sendInvitation } = createAccountMails({ repo, ...deps });
  const passwordReset = createPasswordReset({ ...deps, repo, mirror, deliver });

  return {
    /**
     * Identity-service sign-in (SPEC section 7: {email, firebaseUid} after the web SDK
     * signed in): the ID token is verified, revocation included, before anything else.
     */
    async loginWithIdToken(input: {
      email: string;
      idToken: string;
      firebaseUid?: string;
      rememberMe: boolean;
      client: ClientInfo;
    }) {
      const identity = await verifiedIdentity(input.idToken, {
        email: input.email,
        uid: input.firebaseUid,
      });
      const user = await userForIdentity(identity);
      const pending = await deps.handOver?.begin({
        user,
        rememberMe: input.rememberMe,
        device: null,
      });
      if (pending) return { user, pending };
      return startSession(user, input.client, input.rememberMe);
    },

    /** POST /api/auth/firebase-sync: a signed-in identity user without a server session. */
    async firebaseSync(input: {
      idToken: string;
      firebaseUid?: string;
      email?: string;
      client: ClientInfo;
    }) {
      const identity = await verifiedIdentity(input.idToken, {
        email: input.email,
        uid: input.firebaseUid,
      });
      const user = await userForIdentity(identity);
      await deps.handOver?.refuseWithoutSecondStep(user);
      return startSession(user, input.client, false);
    },

    /** Email and password sign-in (demo mode of SPEC section 1). */
    async login(input: {
      email: string;
      password: string;
      rememberMe: boolean;
      client: ClientInfo;
    }) {
      const { email, password, client } = input;
      const user = await repo.findUserByEmail(email);
      const device = verifyDeviceToken(client.deviceToken, user);
      const attempt = await throttle.beginAttempt(email, client.ip, device);
      const ok = user?.passwordHash
        ? await passwords.verify(password, user.passwordHash)
        : await passwords.verifyAgainstDummy(password);
      if (!user || !ok) {
        await throttle.recordFailure();
        throw invalidCredentials();
      }
      // Status checks come after the password so they reveal nothing to a guesser.
      try {
        assertMaySignIn(user);
      } catch (error) {
        await throttle.withdraw(attempt);
        throw error;
      }
      // A right password of an account with a second factor is not a guess, but forgives
      // nothing either: failures stay counted until the second step succeeds.
      const pending = await deps.handOver?.begin({ user, rememberMe: input.rememberMe, device });
      if (pending) {
        await throttle.withdraw(attempt);
        return { user, pending };
      }
      await throttle.recordSuccess(email, client.ip, device);
      const started = await startSession(user, client, input.rememberMe);
      // The browser keeps (or now gets) its device cookie for this account.
      return { ...started, deviceToken: device ? client.deviceToken : issueDeviceToken(user) };
    },

    /**
     * Starts the session of a sign-in whose second step succeeded: forgives the browser's
     * failures for the account, as a sign-in with the password alone would.
     */
    async finishSignIn(input: {
      userId: string;
      rememberMe: boolean;
      device: string | null;
      client: ClientInfo;
    }) {
      const user = await repo.findUserById(input.userId);
      if (!user) throw invalidCredentials();
      assertMaySignIn(user);
      await throttle.recordSuccess(user.email, input.client.ip, input.device);
      const started = await startSession(user, input.client, input.rememberMe);
      return { ...started, deviceToken: input.device ? undefined : issueDeviceToken(user) };
    },

    /** The learner's first-time setup: sets the first password, never replaces one. */
    async setupPassword(input: SetupPasswordBody & { client: ClientInfo }) {
      const user = await repo.findUserByEmail(input.email);
      if (!user || user.role !== "learner" || !user.isRegisteredByAdmin) throw accessDenied();
      if (user.passwordSetup) throw passwordAlreadySet();
      if (user.status === "restricted") throw accountRestricted();
      // Firebase mode: the account the web SDK just created, verified, is bound here.
      const identity = input.firebaseIdToken
        ? await verifiedIdentity(input.firebaseIdToken, { email: input.email })
        : undefined;
      if (identity) {
        const holder = await repo.findUserByFirebaseUid(identity.uid);
        if (holder && holder.id !== user.id) throw identityInUse();
        if (await boundElsewhere(user, identity.uid)) throw identityInUse();
      }
      // Without a verified token, a client's uid is only kept in demo mode, where it is the
      // spec's generated placeholder and binds nothing.
      const firebaseUid = identity
        ? identity.uid
        : deps.identity.configured
          ? user.firebaseUid
          : (input.firebaseUid ?? user.firebaseUid);
      const passwordHash = await passwords.hash(input.password);
      const updated = await refuseTakenUid(() =>
        db.transaction(async (tx) => {
          const txRepo = createAuthRepository(tx);
          if (deps.passwordSetupMode === "invite") {
            // Invite mode closes account takeover by anyone who merely knows the email.
            const token = input.inviteToken
              ? await txRepo.consumeToken(hashSecret(input.inviteToken), "invite", new Date())
              : undefined;
            if (!token || token.userId !== user.id) throw invitationRequired();
          }
          const row = await txRepo.completePasswordSetup(user.id, {
            passwordHash,
            name: input.name,
            firebaseUid,
          });
          if (!row) throw passwordAlreadySet();
          return row;
        }),
      );
      sessions.forgetUser(updated.id);
      return startSession(updated, input.client, false);
    },

    /** Creates an administrator with the admin key (SPEC section 6). */
    async setupAdmin(input: SetupAdminBody & { client: ClientInfo }) {
      const key = deps.adminSetupKey;
      if (!key) throw adminSetupDisabled();
      if (!safeEqual(input.adminKey, key)) throw invalidAdminKey();
      const passwordHash = await passwords.hash(input.password);
      const user = await db.transaction(async (tx) => {
        const txRepo = createAuthRepository(tx);
        await txRepo.lockAdminSetup();
        if (deps.adminSetupKeyIsOneTime && (await txRepo.countAdmins()) > 0) {
          throw invalidAdminKey();
        }
        const row = await txRepo.insertUser({
          email: input.email,
          name: input.name,
          role: "admin",
          status: "active",
          passwordHash,
          isRegisteredByAdmin: true,
          passwordSetup: true,
        });
        if (!row) throw emailTaken();
        return row;
      });
      return startSession(user, input.client, false);
    },

    /** SPEC section 7: whether an administrator registered this email for a learner. */
    async isRegistered(email: string): Promise<boolean> {
      const user = await repo.findUserByEmail(email);
      return Boolean(user && user.role === "learner" && user.isRegisteredByAdmin);
    },

    /**
     * Only for learners an administrator registered (the setup dialog asks after
     * check-email): for any other account it answers false, so it never reveals
     * which emails belong to administrators.
     */
    async hasPasswordSetup(email: string): Promise<boolean> {
      const user = await repo.findUserByEmail(email);
      return Boolean(
        user && user.role === "learner" && user.isRegisteredByAdmin && user.passwordSetup,
      );
    },

    /**
     * Who a live invitation link is for (its email and the name the administrator entered),
     * so the setup dialog can start verified. Only the holder of an unused, unexpired token
     * of a learner still without a password learns it; any other token gets one answer.
     */
    async invitation(token: string): Promise<{ email: string; name: string }> {
      const row = await repo.findUsableToken(hashSecret(token), "invite", new Date());
      const user = row ? await repo.findUserById(row.userId) : undefined;
      if (
        !user ||
        user.role !== "learner" ||
        !user.isRegisteredByAdmin ||
        user.passwordSetup ||
        user.status !== "active"
      ) {
        throw invitationInvalid();
      }
      return { email: user.email, name: user.name };
    },

    /**
     * Updates the signed-in user's own name and phone, and optionally the password.
     * A password change ends every other session of the user.
     */
    async updateProfile(input: ProfileBody & { user: UserRow; sessionIdHash: string; ip: string }) {
      const { user } = input;
      if (input.userId !== undefined && input.userId !== user.id) throw notYourAccount();
      let passwordHash: string | undefined;
      if (input.newPassword !== undefined) {
        if (user.passwordHash) {
          if (!input.currentPassword) throw currentPasswordRequired();
          // Whoever holds a session could otherwise guess the password here without limit:
          // wrong current passwords count like sign-in failures.
          const attempt = await throttle.beginAttempt(user.email, input.ip);
          if (!(await passwords.verify(input.currentPassword, user.passwordHash))) {
            await throttle.recordFailure();
            throw currentPasswordWrong();
          }
          await throttle.withdraw(attempt);
        }
        passwordHash = await passwords.hash(input.newPassword);
      } else if (input.currentPassword) {
        throw invalidField(
          "auth.new_password_required",
          "newPassword",
          "A new password is required with the current password.",
        );
      }
      const updated = await db.transaction(async (tx) => {
        const txRepo = createAuthRepository(tx);
        const row = await txRepo.updateUser(user.id, {
          name: input.name,
          // A request that leaves the phone out keeps it; an empty or null one clears it.
          ...(input.phone !== undefined ? { phone: input.phone || null } : {}),
          ...(passwordHash ? { passwordHash, passwordSetup: true } : {}),
        });
        if (passwordHash) {
          await txRepo.deleteUserSessions(user.id, input.sessionIdHash);
          await deps.handOver?.endPending(tx, user.id);
          // A reset link mailed before the change must not undo it.
          await txRepo.retireTokens(user.id, "reset", new Date());
        }
        return row!;
      });
      sessions.forgetUser(user.id);
      const newPassword = input.newPassword;
      if (newPassword !== undefined) {
        await mirror("password.change", updated, (uid) =>
          deps.identity.updatePassword(uid, newPassword),
        );
      }
      return updated;
    },

    logout: (sessionIdHash: string) => sessions.destroy(sessionIdHash),

    requestPasswordReset: passwordReset.request,

    /**
     * Sets a new password from a reset link, ends every other session and signs in; an
     * administrator's second factor is still asked for, since a reset link proves only the
     * mailbox.
     */
    async confirmPasswordReset(input: { token: string; password: string; client: ClientInfo }) {
      const user = await passwordReset.confirm(input);
      const pending = await deps.handOver?.begin({ user, rememberMe: false, device: null });
      if (pending) return { user, pending };
      return startSession(user, { ...input.client, currentSession: undefined }, false);
    },

    ...createLearnerLifecycle({ ...deps, repo, mirror, sendInvitation }),

    /** Why an account may not sign in, for the ways in other features own (single sign-on). */
    signInRefusal,

    findUser: (id: string) => repo.findUserById(id),
    /** Emails are stored lower-cased. */
    findUserByEmail: (email: string) => repo.findUserByEmail(email.trim().toLowerCase()),
    findUsers: (ids: string[]) => repo.findUsersByIds([...new Set(ids)]),

    /** Learners registered many at a time with their invitations (a learners import). */
    learnerAccounts: createLearnerAccounts(deps.db),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
