import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  identityProviderInputSchema,
  identityProviderListSchema,
  identityProviderResponseSchema,
  messageSchema,
  signOnDiscoverBodySchema,
  signOnDiscoverResponseSchema,
  signOnLinksSchema,
  signOnProvidersSchema,
  signOnStartQuerySchema,
  signOnUserSchema,
} from "../../../contract";
import { emptyAnswer, errorResponses } from "../../openapi/responses";
import { forbidden, unauthorized } from "../../plugins/errors";
import { actorOf, requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import type { IdentityProvidersService } from "./identity-providers.service";
import type { SignOnService } from "./sign-on.service";

const tags = ["sign-on"];
const admin = requireRole("admin");
const idParams = z.object({ id: z.string().min(1).max(64) });
/** Unauthenticated and cheap, but each start writes a request row. */
const startLimit = { rateLimit: { max: 60, timeWindow: "1 minute" } };
const probeLimit = { rateLimit: { max: 600, timeWindow: "15 minutes" } };

/** The saving of a provider: every refusal of its settings. */
const settingsRefusals = [
  "sso.protocol_unavailable",
  "sso.secrets_key_missing",
  "sso.domain_taken",
  "sso.issuer_unreachable",
  "sso.issuer_insecure",
  "sso.client_secret_required",
  "sso.saml_metadata_required",
  "sso.saml_metadata_invalid",
  "sso.saml_metadata_unreachable",
  "sso.saml_metadata_insecure",
  "sso.saml_signing_certificate_missing",
] as const;

/**
 * Whether a navigation came from one of the portal's own pages: the browser's Fetch Metadata
 * says so, or, from a browser without it, the page that sent it is on the portal's host.
 */
function fromPortalPage(request: FastifyRequest) {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin";
  const { referer, host } = request.headers;
  const portal = `${request.protocol}://${host}`;
  if (!referer || !URL.canParse(referer) || !URL.canParse(portal)) return false;
  return new URL(referer).origin === new URL(portal).origin;
}

export function registerSignOnRoutes(
  parent: FastifyInstance,
  { signOn, providers }: { signOn: SignOnService; providers: IdentityProvidersService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/sign-on/providers",
    { schema: { tags, response: { 200: signOnProvidersSchema } }, config: probeLimit },
    async () => ({ providers: await signOn.providersForSignIn() }),
  );

  app.post(
    "/api/sign-on/discover",
    {
      schema: {
        tags,
        body: signOnDiscoverBodySchema,
        response: { 200: signOnDiscoverResponseSchema },
      },
      config: probeLimit,
    },
    async (request) => ({ provider: await signOn.discover(request.body.email) }),
  );

  app.get(
    "/api/sign-on/:id/start",
    {
      schema: {
        tags,
        params: idParams,
        querystring: signOnStartQuerySchema,
        response: {
          302: emptyAnswer(
            "To the identity provider; or, when it cannot be reached, to the sign-in page with `?signOnError=provider_unavailable`",
            {
              location: "the provider's sign-in address",
              "set-cookie": "`credo_sign_on`, binding the sign-on to this browser",
            },
          ),
          ...errorResponses(["sso.provider_not_found", "auth.not_signed_in", "auth.forbidden"]),
        },
      },
      config: startLimit,
    },
    async (request, reply) => {
      const { purpose } = request.query;
      // Linking binds the provider's account to the signed-in user's own.
      if (purpose === "link" && !request.session) {
        throw unauthorized("auth.not_signed_in", "Sign in to link an identity provider.");
      }
      // Only from the portal's own Profile: a link another site's page navigates the user to
      // would bind whatever account the provider signs in quietly (an administrator's then
      // signing in without Credo's second step).
      if (purpose === "link" && !fromPortalPage(request)) {
        throw forbidden("auth.forbidden", "Link an identity provider from your profile.");
      }
      return reply.redirect(await signOn.start(request, reply, request.params.id, purpose), 302);
    },
  );

  app.get(
    "/api/sign-on/links",
    { schema: { tags, response: { 200: signOnLinksSchema } }, preValidation: requireUser },
    async (request) => ({ links: await signOn.links(sessionOf(request).user.id) }),
  );

  app.get(
    "/api/sign-on/users/:id",
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: signOnUserSchema, ...errorResponses(["sso.user_not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => signOn.user(request.params.id),
  );

  app.get(
    "/api/identity-providers",
    { schema: { tags, response: { 200: identityProviderListSchema } }, preValidation: admin },
    async () => ({ providers: await providers.list() }),
  );

  app.post(
    "/api/identity-providers",
    {
      schema: {
        tags,
        body: identityProviderInputSchema,
        response: { 201: identityProviderResponseSchema, ...errorResponses([...settingsRefusals]) },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      const provider = await providers.create(request.body, actorOf(request));
      return reply.code(201).send({ provider });
    },
  );

  app.get(
    "/api/identity-providers/:id",
    {
      schema: {
        tags,
        params: idParams,
        response: {
          200: identityProviderResponseSchema,
          ...errorResponses(["sso.provider_not_found"]),
        },
      },
      preValidation: admin,
    },
    async (request) => ({ provider: await providers.get(request.params.id) }),
  );

  app.patch(
    "/api/identity-providers/:id",
    {
      schema: {
        tags,
        params: idParams,
        body: identityProviderInputSchema,
        response: {
          200: identityProviderResponseSchema,
          ...errorResponses([
            ...settingsRefusals,
            "sso.protocol_mismatch",
            "sso.provider_not_found",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) => ({
      provider: await providers.update(request.params.id, request.body, actorOf(request)),
    }),
  );

  app.delete(
    "/api/identity-providers/:id",
    {
      schema: {
        tags,
        params: idParams,
        response: { 200: messageSchema, ...errorResponses(["sso.provider_not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => {
      await providers.remove(request.params.id, actorOf(request));
      return { message: "Identity provider removed" };
    },
  );
}
