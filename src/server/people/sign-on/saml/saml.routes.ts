import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { emptyAnswer, errorResponses, fileAnswer } from "../../../openapi/responses";
import type { IdentityProvidersService } from "../identity-providers.service";
import { SignOnRefused } from "../protocol";
import { providerNotFound } from "../sign-on.errors";
import type { SignOnService } from "../sign-on.service";
import type { SamlProtocol } from "./saml.protocol";
import { isCrossSitePost, REPOST_SCRIPT, REPOST_SCRIPT_PATH, repostPage } from "./saml-repost";

const tags = ["sign-on"];
const params = z.object({ id: z.string().min(1).max(64) });
/** A signed, possibly encrypted response with its certificates stays well under this. */
const RESPONSE_MAX_CHARS = 500_000;
const acsBody = z.object({
  SAMLResponse: z
    .string()
    .max(RESPONSE_MAX_CHARS)
    .regex(/^[A-Za-z0-9+/=\s]+$/, "SAMLResponse must be base64"),
  // The SAML bindings limit RelayState to 80 bytes; Credo's is the sign-on state.
  RelayState: z.string().max(80).optional(),
});
const signOnLimit = { rateLimit: { max: 60, timeWindow: "1 minute" } };

export function registerSamlRoutes(
  parent: FastifyInstance,
  deps: { signOn: SignOnService; saml: SamlProtocol; providers: IdentityProvidersService },
) {
  const { signOn, saml, providers } = deps;

  parent.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: RESPONSE_MAX_CHARS + 1000 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.post(
      "/api/sign-on/:id/saml/acs",
      {
        schema: {
          tags,
          summary: "The assertion consumer service: the identity provider posts its answer here",
          params,
          body: acsBody,
          consumes: ["application/x-www-form-urlencoded"],
          response: {
            200: fileAnswer(
              "Posted from the identity provider's site: Credo's page that posts the same fields again from Credo's origin, with the sign-on cookie",
              ["text/html"],
            ),
            302: emptyAnswer(
              "Signed in: to /admin or /learner (to /profile after linking); refused: to the sign-in page (the profile after linking) with `?signOnError=<reason>`",
              { location: "where the browser goes next" },
            ),
          },
        },
        config: { ...signOnLimit, crossSiteFormPost: true },
      },
      async (request, reply) => {
        const { SAMLResponse, RelayState } = request.body;
        if (isCrossSitePost(request)) {
          return reply
            .type("text/html; charset=utf-8")
            .send(repostPage(request.url, { SAMLResponse, ...(RelayState ? { RelayState } : {}) }));
        }
        return signOn.complete(request, reply, request.params.id, RelayState, (provider, row) => {
          if (provider.protocol !== "saml") {
            throw new SignOnRefused("provider_unavailable", "not a SAML provider");
          }
          return saml.verify(provider, row, SAMLResponse.replace(/\s/g, ""));
        });
      },
    );
  });

  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    "/api/sign-on/:id/saml/metadata",
    {
      schema: {
        tags,
        summary: "Credo's SAML metadata for this provider, to give the identity provider",
        params,
        response: {
          200: fileAnswer(
            "The service provider metadata: entity id, assertion consumer service, certificate",
            ["application/samlmetadata+xml"],
            { "content-disposition": "`attachment; filename=…`" },
          ),
          ...errorResponses(["sso.provider_not_found"]),
        },
      },
    },
    async (request, reply) => {
      const provider = await providers.load(request.params.id);
      if (provider?.protocol !== "saml") throw providerNotFound();
      return reply
        .type("application/samlmetadata+xml; charset=utf-8")
        .header("content-disposition", 'attachment; filename="credo-saml-metadata.xml"')
        .send(saml.metadata(provider));
    },
  );
  app.get(
    REPOST_SCRIPT_PATH,
    {
      schema: {
        tags,
        summary: "The script of the page that posts an identity provider's answer again",
        response: { 200: fileAnswer("The script", ["text/javascript"]) },
      },
    },
    async (_request, reply) =>
      reply
        .type("text/javascript; charset=utf-8")
        .header("cache-control", "public, max-age=86400")
        .send(REPOST_SCRIPT),
  );
}
