import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  catalogueBodySchema,
  catalogueMergeBodySchema,
  catalogueTypeBodySchema,
  catalogueTypeSchema,
  creditBodyBodySchema,
  creditCatalogueSchema,
} from "../../../contract";
import { errorResponses } from "../../openapi/responses";
import { actorOf, requireRole } from "../../plugins/sessions";
import type { CreditCatalogueService } from "./credit-catalogue.service";

const tags = ["credit catalogue"];
const params = z.object({ id: z.string().min(1).max(64) });
const bodyAnswer = catalogueBodySchema.extend({ types: z.number().int() });

/** The organisation's credit catalogue, kept by administrators in Settings. */
export function registerCreditCatalogueRoutes(
  parent: FastifyInstance,
  deps: { creditCatalogue: CreditCatalogueService },
) {
  const { creditCatalogue: catalogue } = deps;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole("admin");

  app.get(
    "/api/credit-catalogue",
    { schema: { tags, response: { 200: creditCatalogueSchema } }, preValidation: admin },
    async () => catalogue.list(),
  );

  app.post(
    "/api/credit-catalogue/bodies",
    {
      schema: {
        tags,
        body: creditBodyBodySchema,
        response: { 201: bodyAnswer, ...errorResponses(["catalogue.body_name_taken"]) },
      },
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request, reply) =>
      reply.code(201).send(await catalogue.addBody(request.body, actorOf(request))),
  );

  app.put(
    "/api/credit-catalogue/bodies/:id",
    {
      schema: {
        tags,
        params,
        body: creditBodyBodySchema,
        response: {
          200: bodyAnswer,
          ...errorResponses(["catalogue.body_not_found", "catalogue.body_name_taken"]),
        },
      },
      preValidation: admin,
    },
    async (request) => catalogue.updateBody(request.params.id, request.body, actorOf(request)),
  );

  app.delete(
    "/api/credit-catalogue/bodies/:id",
    {
      schema: {
        tags,
        params,
        response: {
          204: z.null(),
          ...errorResponses(["catalogue.body_not_found", "catalogue.body_in_use"]),
        },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      await catalogue.removeBody(request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/api/credit-catalogue/types",
    {
      schema: {
        tags,
        body: catalogueTypeBodySchema,
        response: {
          201: catalogueTypeSchema,
          ...errorResponses(["catalogue.type_name_taken", "catalogue.body_not_found"]),
        },
      },
      config: { idempotent: true },
      preValidation: admin,
    },
    async (request, reply) =>
      reply.code(201).send(await catalogue.addType(request.body, actorOf(request))),
  );

  app.put(
    "/api/credit-catalogue/types/:id",
    {
      schema: {
        tags,
        params,
        body: catalogueTypeBodySchema,
        response: {
          200: catalogueTypeSchema,
          ...errorResponses([
            "catalogue.type_not_found",
            "catalogue.type_name_taken",
            "catalogue.body_not_found",
            // A published course offering it would no longer pass its publish review.
            "courses.publish_blocked",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) => catalogue.updateType(request.params.id, request.body, actorOf(request)),
  );

  // A type made from the courses' own types is taken as the catalogue's.
  app.post(
    "/api/credit-catalogue/types/:id/confirm",
    {
      schema: {
        tags,
        params,
        response: { 200: catalogueTypeSchema, ...errorResponses(["catalogue.type_not_found"]) },
      },
      preValidation: admin,
    },
    async (request) => catalogue.confirmType(request.params.id, actorOf(request)),
  );

  app.post(
    "/api/credit-catalogue/types/:id/merge",
    {
      schema: {
        tags,
        params,
        body: catalogueMergeBodySchema,
        response: {
          200: catalogueTypeSchema,
          ...errorResponses([
            "catalogue.type_not_found",
            "catalogue.merge_conflict",
            "courses.publish_blocked",
          ]),
        },
      },
      preValidation: admin,
    },
    async (request) =>
      catalogue.mergeType(request.params.id, request.body.intoId, actorOf(request)),
  );

  app.delete(
    "/api/credit-catalogue/types/:id",
    {
      schema: {
        tags,
        params,
        response: {
          204: z.null(),
          ...errorResponses(["catalogue.type_not_found", "catalogue.type_in_use"]),
        },
      },
      preValidation: admin,
    },
    async (request, reply) => {
      await catalogue.removeType(request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );
}
