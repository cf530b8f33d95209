import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { emptyAnswer } from "../../../openapi/responses";
import type { SignOnService } from "../sign-on.service";
import type { OidcProtocol } from "./oidc.protocol";

const tags = ["sign-on"];
const params = z.object({ id: z.string().min(1).max(64) });
/** The authorization response's parameters; openid-client checks every one of them. */
const callbackQuery = z
  .object({
    state: z.string().max(500),
    code: z.string().max(4000),
    iss: z.string().max(1000),
    session_state: z.string().max(1000),
    error: z.string().max(200),
    error_description: z.string().max(2000),
  })
  .partial();

export function registerOidcRoutes(
  parent: FastifyInstance,
  { signOn, oidc }: { signOn: SignOnService; oidc: OidcProtocol },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    "/api/sign-on/:id/oidc/callback",
    {
      schema: {
        tags,
        params,
        querystring: callbackQuery,
        response: {
          302: emptyAnswer(
            "Signed in: to /admin or /learner (to /profile after linking); refused: to the sign-in page (the profile after linking) with `?signOnError=<reason>`",
            { location: "where the browser goes next" },
          ),
        },
      },
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const { state } = request.query;
      const query = request.url.slice(request.url.indexOf("?") + 1);
      return signOn.complete(request, reply, request.params.id, state, (provider, row) =>
        oidc.verify(provider, row, state ?? "", request.url.includes("?") ? query : ""),
      );
    },
  );
}
