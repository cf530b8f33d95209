import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  CREDENTIAL_MEDIA_TYPE,
  credentialCheckSchema,
  credentialFileName,
} from "../../../contract";
import { errorResponses } from "../../openapi/responses";
import { requireUser, sessionOf } from "../../plugins/sessions";
import type { CredentialsService } from "./credentials.service";
import { didDocumentPath } from "./did-web";

const tags = ["credentials"];
const codeParams = z.object({ code: z.string().min(1).max(64) });

/**
 * A signed credential, a JSON-LD document sent exactly as stored (the JSON text itself, so
 * its bytes never change between downloads).
 */
const signedCredentialJson = z
  .custom<string>((value) => typeof value === "string")
  .meta({
    type: "object",
    description: "A Verifiable Credential (Data Model 2.0) with its Data Integrity proof",
    required: ["@context", "id", "type", "issuer", "validFrom", "credentialSubject", "proof"],
  });

const signedCredential = (description: string, headers: Record<string, string>) => ({
  description,
  headers: Object.fromEntries(
    Object.entries(headers).map(([name, about]) => [name, { type: "string", description: about }]),
  ),
  content: { [CREDENTIAL_MEDIA_TYPE]: { schema: signedCredentialJson } },
});

/** Verifiers may cache a status list this long: a revocation shows within five minutes. */
const STATUS_LIST_MAX_AGE = 300;

export function registerCredentialsRoutes(
  parent: FastifyInstance,
  deps: { credentials: CredentialsService; publicUrl: string },
) {
  const { credentials } = deps;
  const app = parent.withTypeProvider<ZodTypeProvider>();

  // The learner's own credential (or any, for administrators), to keep in a wallet.
  app.get(
    "/api/certificates/:code/credential",
    {
      schema: {
        tags,
        params: codeParams,
        response: {
          200: signedCredential("The certificate's signed Open Badges 3.0 credential", {
            "content-disposition": "`attachment; filename=Credential-….json`",
          }),
          ...errorResponses(["credentials.not_found", "credentials.not_yours"]),
        },
      },
      preValidation: requireUser,
    },
    async (request, reply) => {
      const { id, role } = sessionOf(request).user;
      const { certificate, document } = await credentials.credentialFor(request.params.code, {
        id,
        role,
      });
      const fileName = credentialFileName(certificate.courseTitle);
      const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
      reply.header(
        "content-disposition",
        `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      );
      return reply.type(CREDENTIAL_MEDIA_TYPE).send(document);
    },
  );

  // Public, as the certificate's own check: rate limited per address, since each check
  // verifies a signature.
  app.get(
    "/api/certificates/verify/:code/credential",
    {
      schema: {
        tags,
        params: codeParams,
        response: { 200: credentialCheckSchema, ...errorResponses(["credentials.not_found"]) },
      },
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
    },
    async (request) => credentials.check(request.params.code),
  );

  // Public: every verifier of a credential fetches its status list, from any site.
  app.get(
    "/api/credentials/status/:list",
    {
      schema: {
        tags,
        params: z.object({ list: z.string().regex(/^[1-9]\d{0,8}$/, "A status list's number") }),
        response: {
          200: signedCredential("The signed Bitstring Status List credential (revocation)", {
            "cache-control": `\`public, max-age=${STATUS_LIST_MAX_AGE}\``,
          }),
          ...errorResponses(["credentials.status_list_not_found"]),
        },
      },
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const document = await credentials.statusListCredential(Number(request.params.list));
      return reply
        .header("cache-control", `public, max-age=${STATUS_LIST_MAX_AGE}`)
        .header("access-control-allow-origin", "*")
        .type(CREDENTIAL_MEDIA_TYPE)
        .send(document);
    },
  );

  // The issuer's DID document, where did:web resolves (not an API operation); under a
  // PUBLIC_URL with a path, did:web looks for it at that path's /did.json.
  for (const path of new Set(["/.well-known/did.json", didDocumentPath(deps.publicUrl)])) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header("cache-control", `public, max-age=${STATUS_LIST_MAX_AGE}`)
        .header("access-control-allow-origin", "*")
        .type("application/did+ld+json")
        .send(JSON.stringify(await credentials.didDocument())),
    );
  }
}
