import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  newFactorSchema,
  passkeyCreationOptionsSchema,
  passkeyRequestOptionsSchema,
  secondStepProofSchema,
  setupFinishedSchema,
  totpSetupSchema,
  userResponseSchema,
} from "../../../contract";
import { errorResponses } from "../../openapi/responses";
import { AppError } from "../../plugins/errors";
import { securityEvent } from "../../plugins/security-events";
import { setSessionCookie } from "../../plugins/sessions";
import { toUser } from "../auth/auth.mapper";
import type { ClientInfo, UserRow } from "../auth/auth.service";
import { setDeviceCookie } from "../auth/device-cookies";
import type { SecondStepService } from "./second-step.service";
import { SECOND_STEP_COOKIE, SECOND_STEP_PATH } from "./sign-in-gate";

const tags = ["second factor"];
/** As many tries as a sign-in gets; the sign-in throttle counts the wrong ones per account. */
const stepLimit = { rateLimit: { max: 60, timeWindow: "1 minute" } };
const pendingRefusals = ["mfa.challenge_expired", "auth.throttled"] as const;
const proofRefusals = [
  "mfa.code_invalid",
  "mfa.code_reused",
  "mfa.recovery_code_used",
  "mfa.passkey_unknown",
  "mfa.passkey_invalid",
] as const;

const tokenOf = (request: FastifyRequest) => request.cookies[SECOND_STEP_COOKIE];
const clientOf = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers["user-agent"],
  currentSession: request.session?.idHash,
});

/** The pending sign-in's second step: /api/auth/second-factor/… (see second-step.service.ts). */
export function registerSecondStepRoutes(
  parent: FastifyInstance,
  deps: { secondStep: SecondStepService; secureCookies: boolean },
) {
  const { secondStep, secureCookies } = deps;
  const app = parent.withTypeProvider<ZodTypeProvider>();

  /** The session begins; the used step's cookie goes. */
  function signIn(
    reply: FastifyReply,
    signedIn: Awaited<ReturnType<SecondStepService["verify"]>>,
  ): { user: ReturnType<typeof toUser> } {
    setSessionCookie(reply, signedIn.session, secureCookies);
    if (signedIn.deviceToken) setDeviceCookie(reply, signedIn.deviceToken, secureCookies);
    reply.clearCookie(SECOND_STEP_COOKIE, { path: SECOND_STEP_PATH, secure: secureCookies });
    return { user: toUser(signedIn.user) };
  }

  async function logged<T extends { user: UserRow }>(
    request: FastifyRequest,
    method: string,
    run: () => Promise<T>,
  ): Promise<T> {
    try {
      const result = await run();
      securityEvent(request, "auth.second_factor.success", { userId: result.user.id });
      return result;
    } catch (error) {
      securityEvent(request, "auth.second_factor.failure", {
        status: error instanceof AppError ? error.statusCode : 500,
      });
      request.log.warn({ method }, "second factor refused");
      throw error;
    }
  }

  app.post(
    `${SECOND_STEP_PATH}/passkey-options`,
    {
      schema: {
        tags,
        response: {
          200: passkeyRequestOptionsSchema,
          ...errorResponses(["mfa.challenge_expired", "mfa.setup_required"]),
        },
      },
      config: stepLimit,
    },
    async (request) => secondStep.passkeyOptions(tokenOf(request)),
  );

  app.post(
    `${SECOND_STEP_PATH}/verify`,
    {
      schema: {
        tags,
        body: secondStepProofSchema,
        response: {
          200: userResponseSchema,
          ...errorResponses([...pendingRefusals, ...proofRefusals, "mfa.setup_required"]),
        },
      },
      config: stepLimit,
    },
    async (request, reply) => {
      const signedIn = await logged(request, request.body.method, () =>
        secondStep.verify({
          token: tokenOf(request),
          proof: request.body,
          client: clientOf(request),
        }),
      );
      return signIn(reply, signedIn);
    },
  );

  app.post(
    `${SECOND_STEP_PATH}/setup/:method`,
    {
      schema: {
        tags,
        params: z.object({ method: z.enum(["totp", "passkey"]) }),
        response: {
          200: z.union([totpSetupSchema, passkeyCreationOptionsSchema]),
          ...errorResponses([
            "mfa.challenge_expired",
            "mfa.setup_not_required",
            "mfa.secrets_key_missing",
          ]),
        },
      },
      config: stepLimit,
    },
    async (request) => secondStep.startSetup(tokenOf(request), request.params.method),
  );

  app.post(
    `${SECOND_STEP_PATH}/setup`,
    {
      schema: {
        tags,
        body: newFactorSchema,
        response: {
          200: setupFinishedSchema,
          ...errorResponses([
            ...pendingRefusals,
            "mfa.setup_not_required",
            "mfa.setup_not_started",
            "mfa.setup_code_invalid",
            "mfa.passkey_registration_invalid",
          ]),
        },
      },
      config: stepLimit,
    },
    async (request, reply) => {
      const finished = await logged(request, request.body.method, () =>
        secondStep.finishSetup({
          token: tokenOf(request),
          factor: request.body,
          client: clientOf(request),
        }),
      );
      return { ...signIn(reply, finished), recoveryCodes: finished.recoveryCodes };
    },
  );
}
