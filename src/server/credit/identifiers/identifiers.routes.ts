import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  identifiersBodySchema,
  identifiersSchema,
  licenceBodySchema,
  licenceSchema,
} from "../../../contract";
import { requireRole, requireUser, sessionOf } from "../../plugins/sessions";
import type { IdentifiersService } from "./identifiers.service";

const tags = ["identifiers"];
const learner = requireRole("learner");

/**
 * The signed-in learner's professional identifiers: their own, never another's (no route
 * names a user). The licence view is the profile's from before the record held a list.
 */
export function registerIdentifiersRoutes(
  parent: FastifyInstance,
  deps: { identifiers: IdentifiersService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { identifiers } = deps;

  app.get(
    "/api/me/identifiers",
    { schema: { tags, response: { 200: identifiersSchema } }, preValidation: learner },
    async (request) => identifiers.mine(sessionOf(request).user.id),
  );
  app.patch(
    "/api/me/identifiers",
    {
      schema: { tags, body: identifiersBodySchema, response: { 200: identifiersSchema } },
      preValidation: learner,
    },
    async (request) => identifiers.save(sessionOf(request).user, request.body),
  );

  app.get(
    "/api/profile/licence",
    { schema: { tags, response: { 200: licenceSchema } }, preValidation: requireUser },
    async (request) => identifiers.licence(sessionOf(request).user.id),
  );
  app.put(
    "/api/profile/licence",
    {
      schema: { tags, body: licenceBodySchema, response: { 200: licenceSchema } },
      preValidation: requireUser,
    },
    async (request) => identifiers.saveLicence(sessionOf(request).user, request.body),
  );
}
