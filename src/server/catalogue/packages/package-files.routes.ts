import type { FastifyInstance } from "fastify";
import type { ContentLinks } from "../../platform";
import type { ObjectStore } from "../../storage/object-store";
import { contentTypeOf } from "./content-types";
import { contentFileNotFound, contentLinkExpired } from "./packages.errors";

/** What a missing file looks like from either store, as against a store that failed. */
const isMissing = (err: unknown) => {
  const e = err as { code?: string; name?: string; message?: string };
  return (
    e.code === "ENOENT" ||
    e.code === "EISDIR" ||
    e.code === "ENOTDIR" ||
    e.name === "NoSuchKey" ||
    e.name === "NotFound" ||
    /^unsafe package path/.test(e.message ?? "")
  );
};

/**
 * A package's files on the content origin, for anyone holding a link the portal signed
 * (content-links.ts): a learner's player, an administrator's preview, the package's own
 * pages loading each other.
 */
export function registerPackageFilesRoutes(
  content: FastifyInstance,
  deps: { links: ContentLinks; store: Pick<ObjectStore, "readPackageFile"> },
) {
  content.get<{ Params: { token: string; "*": string } }>("/p/:token/*", async (request, reply) => {
    const packageId = await deps.links.packageOf(request.params.token);
    if (!packageId) throw contentLinkExpired();
    const path = request.params["*"];
    let body: Awaited<ReturnType<typeof deps.store.readPackageFile>>;
    try {
      body = await deps.store.readPackageFile(packageId, path);
    } catch (err) {
      if (isMissing(err)) throw contentFileNotFound();
      throw err;
    }
    return reply
      .type(contentTypeOf(path))
      .header("cache-control", "private, max-age=3600")
      .send(body);
  });
}
