import type { FastifyInstance } from "fastify";
import { byteRangeOf } from "../../lib/byte-range";
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
  deps: { links: ContentLinks; store: Pick<ObjectStore, "readPackageFile" | "packageFileSize"> },
) {
  content.get<{ Params: { token: string; "*": string } }>("/p/:token/*", async (request, reply) => {
    const packageId = await deps.links.packageOf(request.params.token);
    if (!packageId) throw contentLinkExpired();
    const path = request.params["*"];
    const answer = (status: number) =>
      reply
        .code(status)
        .type(contentTypeOf(path))
        .header("cache-control", "private, max-age=3600")
        .header("accept-ranges", "bytes");
    try {
      // A package's video or audio is read in ranges as it plays and seeks (Safari plays
      // no MP4 otherwise).
      const wanted = request.headers.range;
      const size = wanted ? await deps.store.packageFileSize(packageId, path) : 0;
      const range = wanted ? byteRangeOf(wanted, size) : undefined;
      if (range === undefined) {
        return answer(200).send(await deps.store.readPackageFile(packageId, path));
      }
      if (range === "unsatisfiable") {
        return answer(416).header("content-range", `bytes */${size}`).send();
      }
      const body = await deps.store.readPackageFile(packageId, path, range);
      return answer(206)
        .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
        .header("content-length", range.end - range.start + 1)
        .send(body);
    } catch (err) {
      if (isMissing(err)) throw contentFileNotFound();
      throw err;
    }
  });
}
