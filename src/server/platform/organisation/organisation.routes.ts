import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { LOGO_TYPES, organisationBodySchema, organisationSchema } from "../../../contract";
import { errorResponses, fileAnswer } from "../../openapi/responses";
import { requireRole } from "../../plugins/sessions";
import type { OrganisationService } from "./organisation.service";

const tags = ["organisation"];
const logoParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{24}$/, "Invalid logo id") });

/** The organisation profile: read by anyone (it is every certificate's issuer), set by admins. */
export function registerOrganisationRoutes(
  parent: FastifyInstance,
  deps: { organisation: OrganisationService },
) {
  const { organisation } = deps;
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/organisation",
    { schema: { tags, response: { 200: organisationSchema } } },
    async () => organisation.profile(),
  );

  app.put(
    "/api/admin/organisation",
    {
      schema: {
        tags,
        body: organisationBodySchema,
        response: {
          200: organisationSchema,
          ...errorResponses(["organisation.logo_not_uploaded"]),
        },
      },
      preValidation: requireRole("admin"),
    },
    async (request) => organisation.save(request.body),
  );

  // Public: certificates print the logo, and their verification page is open to anyone.
  app.get(
    "/api/organisation/logos/:id",
    {
      schema: {
        tags,
        params: logoParams,
        response: {
          200: fileAnswer("The logo, as it was checked when uploaded", LOGO_TYPES),
          ...errorResponses(["organisation.logo_not_found"]),
        },
      },
    },
    async (request, reply) => {
      const logo = await organisation.logo(request.params.id);
      return (
        reply
          .type(logo.contentType)
          // A logo's address names one upload, whose bytes never change.
          .header("cache-control", "public, max-age=31536000, immutable")
          .header("x-content-type-options", "nosniff")
          .send(logo.bytes)
      );
    },
  );
}
