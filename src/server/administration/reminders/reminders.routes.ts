import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  reminderSettingsSchema,
  UNSUBSCRIBE_TOKEN_MAX,
  unsubscribeBodySchema,
  unsubscribeResponseSchema,
} from "../../../contract";
import { emptyAnswer, errorResponses } from "../../openapi/responses";
import { requireRole } from "../../plugins/sessions";
import type { RemindersService } from "./reminders.service";

const tags = ["reminders"];
const tokenQuery = z.object({ token: z.string().min(1).max(UNSUBSCRIBE_TOKEN_MAX) });
/** Public and unauthenticated: limited per address so tokens cannot be guessed at speed. */
const unsubscribeLimit = { rateLimit: { max: 30, timeWindow: "1 minute" } };

export function registerRemindersRoutes(
  parent: FastifyInstance,
  deps: { reminders: RemindersService },
) {
  const { reminders } = deps;
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/admin/reminder-settings",
    {
      schema: { tags, response: { 200: reminderSettingsSchema } },
      preValidation: requireRole("admin"),
    },
    async () => reminders.settings(),
  );

  app.put(
    "/api/admin/reminder-settings",
    {
      schema: { tags, body: reminderSettingsSchema, response: { 200: reminderSettingsSchema } },
      preValidation: requireRole("admin"),
    },
    async (request) => reminders.saveSettings(request.body),
  );

  // The unsubscribe page's button: a mail scanner fetching the link (GET) changes nothing.
  app.post(
    "/api/reminders/unsubscribe",
    {
      schema: {
        tags,
        body: unsubscribeBodySchema,
        response: {
          200: unsubscribeResponseSchema,
          ...errorResponses(["reminders.unsubscribe_link_invalid"]),
        },
      },
      config: unsubscribeLimit,
    },
    async (request) => {
      await reminders.unsubscribe(request.body.token);
      return { unsubscribed: true as const };
    },
  );

  // RFC 8058 one-click unsubscribe: the mail program POSTs "List-Unsubscribe=One-Click" as
  // a form; the token in the address is the whole proof, so the body is read and ignored.
  app.register(async (oneClick) => {
    oneClick.addContentTypeParser("*", { parseAs: "string" }, (_request, _body, done) =>
      done(null, undefined),
    );
    const route = oneClick.withTypeProvider<ZodTypeProvider>();
    route.post(
      "/api/reminders/unsubscribe/one-click",
      {
        schema: {
          tags,
          querystring: tokenQuery,
          response: {
            200: unsubscribeResponseSchema,
            ...errorResponses(["reminders.unsubscribe_link_invalid"]),
          },
        },
        config: { ...unsubscribeLimit, allowNonJsonBody: true },
      },
      async (request) => {
        await reminders.unsubscribe(request.query.token);
        return { unsubscribed: true as const };
      },
    );
    // A mail program that opens the header's link instead lands on the page that asks.
    route.get(
      "/api/reminders/unsubscribe/one-click",
      {
        schema: {
          tags,
          querystring: tokenQuery,
          response: {
            302: emptyAnswer("To the unsubscribe page, which asks before unsubscribing", {
              location: "`/unsubscribe?token=…`",
            }),
          },
        },
        config: unsubscribeLimit,
      },
      async (request, reply) =>
        reply.redirect(`/unsubscribe?token=${encodeURIComponent(request.query.token)}`),
    );
  });
}
