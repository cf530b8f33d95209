import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  factorAddedSchema,
  factorConfirmationSchema,
  newFactorSchema,
  passkeyCreationOptionsSchema,
  recoveryCodesSchema,
  secondFactorPolicySchema,
  secondFactorStatusSchema,
  totpSetupSchema,
} from "../../../contract";
import { errorResponses } from "../../openapi/responses";
import { securityEvent } from "../../plugins/security-events";
import { requireRole, sessionOf } from "../../plugins/sessions";
import type { SecondFactorService } from "./second-factor.service";

const tags = ["second factor"];
const admin = requireRole("admin");
const factorParams = z.object({ id: z.string().min(1).max(64) });
const confirmRefusals = ["mfa.confirmation_wrong", "auth.throttled"] as const;

/** An administrator's own second factors (the profile) and the organisation's rule (Settings). */
export function registerSecondFactorRoutes(
  parent: FastifyInstance,
  deps: { secondFactor: SecondFactorService },
) {
  const { secondFactor } = deps;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const me = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).user;

  app.get(
    "/api/second-factor",
    { schema: { tags, response: { 200: secondFactorStatusSchema } }, preValidation: admin },
    async (request) => secondFactor.status(me(request)),
  );

  app.post(
    "/api/second-factor/totp",
    {
      schema: {
        tags,
        response: {
          200: totpSetupSchema,
          ...errorResponses(["mfa.totp_exists", "mfa.secrets_key_missing"]),
        },
      },
      preValidation: admin,
    },
    async (request) => secondFactor.startTotp(me(request)),
  );

  app.post(
    "/api/second-factor/passkey-options",
    {
      schema: { tags, response: { 200: passkeyCreationOptionsSchema } },
      preValidation: admin,
    },
    async (request) => secondFactor.startPasskey(me(request)),
  );

  app.post(
    "/api/second-factor/factors",
    {
      schema: {
        tags,
        body: newFactorSchema,
        response: {
          200: factorAddedSchema,
          ...errorResponses([
            "mfa.setup_not_started",
            "mfa.setup_code_invalid",
            "mfa.passkey_registration_invalid",
            "mfa.totp_exists",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) => {
      const added = await secondFactor.add(me(request), request.body);
      securityEvent(request, "auth.second_factor.added", { userId: me(request).id });
      return added;
    },
  );

  app.post(
    "/api/second-factor/factors/:id/remove",
    {
      schema: {
        tags,
        params: factorParams,
        body: factorConfirmationSchema,
        response: {
          200: secondFactorStatusSchema,
          ...errorResponses([...confirmRefusals, "mfa.not_found", "mfa.required_by_organisation"]),
        },
      },
      preValidation: admin,
    },
    async (request) => {
      const { status } = await secondFactor.remove(
        me(request),
        request.params.id,
        request.body,
        request.ip,
      );
      securityEvent(request, "auth.second_factor.removed", { userId: me(request).id });
      return status;
    },
  );

  app.post(
    "/api/second-factor/recovery-codes",
    {
      schema: {
        tags,
        body: factorConfirmationSchema,
        response: {
          200: recoveryCodesSchema,
          ...errorResponses([...confirmRefusals, "mfa.not_found"]),
        },
      },
      preValidation: admin,
    },
    async (request) => ({
      recoveryCodes: await secondFactor.renewRecoveryCodes(me(request), request.body, request.ip),
    }),
  );

  app.get(
    "/api/admin/second-factor/policy",
    { schema: { tags, response: { 200: secondFactorPolicySchema } }, preValidation: admin },
    async () => secondFactor.policy(),
  );

  app.put(
    "/api/admin/second-factor/policy",
    {
      schema: {
        tags,
        body: secondFactorPolicySchema,
        response: {
          200: secondFactorPolicySchema,
          ...errorResponses(["mfa.enrol_first"]),
        },
      },
      preValidation: admin,
    },
    async (request) => {
      const policy = await secondFactor.setPolicy(me(request), request.body.required);
      securityEvent(request, "auth.second_factor.policy_updated", { userId: me(request).id });
      return policy;
    },
  );
}
