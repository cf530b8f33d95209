import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  checkEmailResponseSchema,
  checkPasswordSetupResponseSchema,
  emailBodySchema,
  firebaseSyncBodySchema,
  invitationBodySchema,
  invitationResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  logoutResponseSchema,
  MESSAGES,
  messageSchema,
  profileBodySchema,
  registerBodySchema,
  resetConfirmBodySchema,
  setupAdminBodySchema,
  setupPasswordBodySchema,
  userResponseSchema,
  userSchema,
} from "../../../contract";
import { errorResponses } from "../../openapi/responses";
import { AppError } from "../../plugins/errors";
import {
  type SecurityEventFields,
  type SecurityEventName,
  securityEvent,
} from "../../plugins/security-events";
import {
  clearSessionCookie,
  requireRole,
  requireUser,
  sessionOf,
  setSessionCookie,
} from "../../plugins/sessions";
import { adminKeyGuessLimit, perEmailLimit, ROOM_LIMIT } from "./account-limits";
import { toUser } from "./auth.mapper";
import type { AuthService, ClientInfo } from "./auth.service";
import { deviceTokenOf, setDeviceCookie } from "./device-cookies";
import type { PendingSignIn } from "./sign-in-hand-over";

export interface AuthRoutesOptions {
  auth: AuthService;
  secureCookies: boolean;
  /**
   * Single sign-on: where the browser goes after sign-out when its session came from an
   * identity provider with single logout (sign-on's service, which depends on this feature).
   */
  singleLogout?: {
    logoutUrl(request: FastifyRequest, reply: FastifyReply): Promise<string | undefined>;
  };
}

const tags = ["auth"];
/** Per-address limits for unauthenticated endpoints (see account-limits.ts for per-email). */
const probeLimit = { rateLimit: { max: 600, timeWindow: "15 minutes" } };
const roomLimit = { rateLimit: ROOM_LIMIT };
/** Creating the first administrator is one person's job: guessing the key stays slow. */
const adminSetupLimit = { rateLimit: { max: 10, timeWindow: "15 minutes" } };

/** What verifying an identity-service ID token can refuse (identity/firebase-identity.ts). */
const identityRefusals = [
  "auth.identity_not_configured",
  "auth.identity_token_invalid",
  "auth.identity_mismatch",
  "auth.identity_unavailable",
] as const;
/** Who may not sign in, and an identity-service account bound to someone else. */
const signInRefusals = [
  "auth.restricted",
  "auth.access_denied",
  "auth.identity_email_unverified",
  "auth.identity_in_use",
] as const;

/** Runs an account action, logging its failure as a security event before passing it on. */
async function logFailure<T>(
  request: FastifyRequest,
  event: SecurityEventName,
  fields: { email?: string; userId?: string },
  action: () => Promise<T>,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    securityEvent(request, event, {
      ...fields,
      status: error instanceof AppError ? error.statusCode : 500,
    });
    throw error;
  }
}

function clientOf(request: FastifyRequest, secureCookies = false): ClientInfo {
  return {
    ip: request.ip,
    userAgent: request.headers["user-agent"],
    currentSession: request.session?.idHash,
    deviceToken: deviceTokenOf(request, secureCookies),
  };
}

export function registerAuthRoutes(
  parent: FastifyInstance,
  { auth, secureCookies, singleLogout }: AuthRoutesOptions,
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  // Per email, what one person could spend for another is never counted: a set-up that
  // succeeds (an emailed invitation is never held back by a stranger's guesses), or a look-up
  // (its answer for one email never changes; the per-address limit bounds enumeration).
  // Resets and invitations count apart, so asking for one never uses up the other.
  const setupFailuresPerEmail = perEmailLimit(app, "setup-password", {
    max: 10,
    timeWindow: "15 minutes",
  });
  const resetsPerEmail = perEmailLimit(app, "reset", { max: 5, timeWindow: "15 minutes" });
  const invitationsPerEmail = perEmailLimit(app, "invitation", {
    max: 5,
    timeWindow: "15 minutes",
  });
  const adminKeyGuesses = adminKeyGuessLimit(app);
  // Reset requests are worked through one at a time, in the order they came: a flood of them
  // queues here instead of piling up concurrent lookups and mails.
  let resets: Promise<unknown> = Promise.resolve();

  /**
   * A sign-in that succeeded without a second step (an identity token, a password set or
   * reset, the first administrator): logged as `event`, its session cookie set, its user
   * answered.
   */
  function answerSignedIn(
    request: FastifyRequest,
    reply: FastifyReply,
    event: SecurityEventName,
    {
      user,
      session,
    }: { user: Parameters<typeof toUser>[0]; session: Parameters<typeof setSessionCookie>[1] },
    fields: SecurityEventFields = { userId: user.id },
  ) {
    securityEvent(request, event, fields);
    setSessionCookie(reply, session, secureCookies);
    return { user: toUser(user) };
  }

  /** A right password of an account that waits for its second step: no session yet. */
  function answerSecondStep(
    request: FastifyRequest,
    reply: FastifyReply,
    { user, pending }: { user: { id: string }; pending: PendingSignIn },
  ) {
    securityEvent(request, "auth.login.second_step", { userId: user.id });
    reply.setCookie(pending.cookie.name, pending.cookie.value, pending.cookie.options);
    return pending.answer;
  }

  app.post(
    "/api/auth/login",
    {
      schema: {
        tags,
        body: loginBodySchema,
        response: {
          // The spec's { user }, or an administrator's pending second step.
          200: loginResponseSchema,
          ...errorResponses([
            "auth.invalid_credentials",
            "auth.throttled",
            ...identityRefusals,
            ...signInRefusals,
          ]),
        },
      },
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const { email, password, rememberMe, firebaseIdToken, firebaseUid } = request.body;
      // No password means identity-service sign-in: the body's refinement then requires
      // the ID token, and only what the server verifies in it counts.
      const signedIn = await logFailure(request, "auth.login.failure", { email }, () =>
        password === undefined
          ? auth.loginWithIdToken({
              email,
              idToken: firebaseIdToken ?? "",
              firebaseUid,
              rememberMe: rememberMe ?? false,
              client: clientOf(request),
            })
          : auth.login({
              email,
              password,
              rememberMe: rememberMe ?? false,
              client: clientOf(request, secureCookies),
            }),
      );
      if ("pending" in signedIn) return answerSecondStep(request, reply, signedIn);
      const { user, session } = signedIn;
      securityEvent(request, "auth.login.success", { userId: user.id });
      setSessionCookie(reply, session, secureCookies);
      if ("deviceToken" in signedIn && typeof signedIn.deviceToken === "string") {
        setDeviceCookie(reply, signedIn.deviceToken, secureCookies);
      }
      return { user: toUser(user) };
    },
  );

  app.post(
    "/api/auth/firebase-sync",
    {
      schema: {
        tags,
        body: firebaseSyncBodySchema,
        response: {
          200: userResponseSchema,
          ...errorResponses([...identityRefusals, ...signInRefusals, "mfa.sign_in_required"]),
        },
      },
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const { firebaseIdToken, firebaseUid, email } = request.body;
      const signedIn = await logFailure(request, "auth.login.failure", { email }, () =>
        auth.firebaseSync({
          idToken: firebaseIdToken,
          firebaseUid,
          email,
          client: clientOf(request),
        }),
      );
      return answerSignedIn(request, reply, "auth.login.success", signedIn);
    },
  );

  app.post(
    "/api/auth/setup-password",
    {
      schema: {
        tags,
        body: setupPasswordBodySchema,
        response: {
          200: userResponseSchema,
          ...errorResponses([
            "auth.access_denied",
            "auth.password_already_set",
            "auth.restricted",
            "auth.invitation_required",
            "auth.identity_in_use",
            "auth.throttled",
            ...identityRefusals,
          ]),
        },
      },
      config: roomLimit,
    },
    async (request, reply) => {
      const signedIn = await logFailure(
        request,
        "auth.password.setup.failure",
        { email: request.body.email },
        () =>
          auth
            .setupPassword({ ...request.body, client: clientOf(request) })
            .catch(async (error) => {
              // Past the email's refusals in 15 minutes, a refusal is answered 429 instead.
              if (error instanceof AppError) await setupFailuresPerEmail(request);
              throw error;
            }),
      );
      return answerSignedIn(request, reply, "auth.password.setup", signedIn);
    },
  );

  app.post(
    "/api/auth/setup-admin-password",
    {
      schema: {
        tags,
        body: setupAdminBodySchema,
        response: {
          200: userResponseSchema,
          ...errorResponses([
            "auth.admin_setup_disabled",
            "auth.invalid_admin_key",
            "auth.email_taken",
            "auth.throttled",
          ]),
        },
      },
      config: adminSetupLimit,
    },
    async (request, reply) => {
      const signedIn = await logFailure(
        request,
        "auth.admin.setup.failure",
        { email: request.body.email },
        () =>
          auth.setupAdmin({ ...request.body, client: clientOf(request) }).catch(async (error) => {
            if (error instanceof AppError && error.message === MESSAGES.invalidAdminKey) {
              await adminKeyGuesses(request);
            }
            throw error;
          }),
      );
      return answerSignedIn(request, reply, "auth.admin.created", signedIn, {
        userId: signedIn.user.id,
        email: signedIn.user.email,
      });
    },
  );

  app.post(
    "/api/auth/check-email",
    {
      schema: {
        tags,
        body: emailBodySchema,
        response: { 200: checkEmailResponseSchema, ...errorResponses(["auth.throttled"]) },
      },
      config: probeLimit,
    },
    async (request) => ({ isRegistered: await auth.isRegistered(request.body.email) }),
  );

  app.post(
    "/api/auth/check-password-setup",
    {
      schema: {
        tags,
        body: emailBodySchema,
        response: {
          200: checkPasswordSetupResponseSchema,
          ...errorResponses(["auth.throttled"]),
        },
      },
      config: probeLimit,
    },
    async (request) => ({ passwordSetup: await auth.hasPasswordSetup(request.body.email) }),
  );

  app.post(
    "/api/auth/invitation",
    {
      schema: {
        tags,
        body: invitationBodySchema,
        response: { 200: invitationResponseSchema, ...errorResponses(["auth.invitation_invalid"]) },
      },
      config: probeLimit,
    },
    async (request) => auth.invitation(request.body.token),
  );

  app.post(
    "/api/auth/logout",
    { schema: { tags, response: { 200: logoutResponseSchema } } },
    async (request, reply) => {
      // Asked before the session ends: the provider session is honoured only with it.
      const redirectTo = await singleLogout?.logoutUrl(request, reply);
      if (request.session) {
        await auth.logout(request.session.idHash);
        securityEvent(request, "auth.logout", { userId: request.session.user.id });
      }
      clearSessionCookie(reply, secureCookies);
      return { message: "Logged out", ...(redirectTo ? { redirectTo } : {}) };
    },
  );

  app.post(
    "/api/auth/reset-password",
    {
      schema: {
        tags,
        body: emailBodySchema,
        response: { 200: messageSchema, ...errorResponses(["auth.throttled"]) },
      },
      config: roomLimit,
      preHandler: resetsPerEmail,
    },
    async (request) => {
      // Answered before any lookup or mail: same reply and timing for every email.
      securityEvent(request, "auth.password.reset.requested", { email: request.body.email });
      const { email } = request.body;
      resets = resets
        .then(() => auth.requestPasswordReset(email))
        .catch((err) => request.log.error({ err }, "password reset request failed"));
      return { message: "If an account exists for this email, a reset link is on its way." };
    },
  );

  app.post(
    "/api/auth/reset-password/confirm",
    {
      schema: {
        tags,
        body: resetConfirmBodySchema,
        response: {
          // The user signed in, or an administrator's pending second step.
          200: loginResponseSchema,
          ...errorResponses(["auth.reset_link_invalid", "auth.restricted", "auth.access_denied"]),
        },
      },
      config: roomLimit,
    },
    async (request, reply) => {
      const signedIn = await logFailure(request, "auth.password.reset.failure", {}, () =>
        auth.confirmPasswordReset({ ...request.body, client: clientOf(request) }),
      );
      if ("pending" in signedIn) return answerSecondStep(request, reply, signedIn);
      return answerSignedIn(request, reply, "auth.password.reset", signedIn);
    },
  );

  app.post(
    "/api/auth/resend-invitation",
    {
      schema: {
        tags,
        body: emailBodySchema,
        response: { 200: messageSchema, ...errorResponses(["auth.throttled"]) },
      },
      config: roomLimit,
      preHandler: invitationsPerEmail,
    },
    async (request) => {
      auth.resendInvitation(request.body.email).catch((err) => {
        request.log.error({ err }, "invitation resend failed");
      });
      return { message: "If this email is registered, a new invitation link is on its way." };
    },
  );

  app.get(
    "/api/auth/me",
    { schema: { tags, response: { 200: userResponseSchema } }, preValidation: requireUser },
    async (request) => ({ user: toUser(sessionOf(request).user) }),
  );

  app.post(
    "/api/auth/register",
    {
      schema: {
        tags,
        body: registerBodySchema,
        response: { 201: userSchema, ...errorResponses(["auth.email_taken"]) },
      },
      config: { idempotent: true },
      preValidation: requireRole("admin"),
    },
    async (request, reply) => {
      const user = await auth.registerLearner(request.body);
      securityEvent(request, "learner.registered", {
        userId: user.id,
        email: user.email,
        actorId: sessionOf(request).user.id,
      });
      return reply.code(201).send(toUser(user));
    },
  );

  app.put(
    "/api/auth/profile",
    {
      schema: {
        tags,
        body: profileBodySchema,
        response: {
          200: userResponseSchema,
          ...errorResponses([
            "auth.not_your_account",
            "auth.current_password_required",
            "auth.current_password_wrong",
            "auth.new_password_required",
            "auth.throttled",
          ]),
        },
      },
      preValidation: requireUser,
    },
    async (request) => {
      const session = sessionOf(request);
      const update = () =>
        auth.updateProfile({
          ...request.body,
          user: session.user,
          sessionIdHash: session.idHash,
          ip: request.ip,
        });
      if (request.body.newPassword === undefined) return { user: toUser(await update()) };
      const user = await logFailure(
        request,
        "auth.password.change.failure",
        { userId: session.user.id },
        update,
      );
      securityEvent(request, "auth.password.changed", { userId: user.id });
      return { user: toUser(user) };
    },
  );
}
