import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { contentKeys } from "./content-origin.table";

/** How long a link to a package's content works: a long sitting, not a shared bookmark. */
const CONTENT_LINK_HOURS = 24;

const KEY_NAME = "package-links";

/**
 * Links to a package's files on the content origin. The content origin keeps no session, so
 * a link carries its own right to read: the package's id and an expiry, signed. The token is
 * a path segment, so a package's relative links between its own files keep working.
 */
export function createContentLinks(deps: {
  db: Database;
  contentOrigin: string;
  now?: () => Date;
}) {
  const { db, contentOrigin } = deps;
  const now = deps.now ?? (() => new Date());
  let secret: Promise<Buffer> | undefined;

  /** The signing secret, made the first time one is needed; every instance reads the one row. */
  function key(): Promise<Buffer> {
    secret ??= (async () => {
      await db
        .insert(contentKeys)
        .values({ name: KEY_NAME, secret: randomBytes(32).toString("base64url") })
        .onConflictDoNothing();
      const [row] = await db.select().from(contentKeys).where(eq(contentKeys.name, KEY_NAME));
      return Buffer.from(row!.secret, "base64url");
    })().catch((err) => {
      secret = undefined;
      throw err;
    });
    return secret;
  }

  const signature = (k: Buffer, claim: string) =>
    createHmac("sha256", k).update(claim).digest().subarray(0, 18).toString("base64url");

  return {
    /** The base URL of a package's files, ending in `/`: the launch path is appended to it. */
    async packageBase(packageId: string): Promise<string> {
      const expires = Math.floor(now().getTime() / 1000) + CONTENT_LINK_HOURS * 3600;
      const claim = `${packageId}.${expires}`;
      return `${contentOrigin}/p/${claim}.${signature(await key(), claim)}/`;
    },

    /** The package a link's token opens, or null when it is forged or has expired. */
    async packageOf(token: string): Promise<string | null> {
      const match = /^([A-Za-z0-9_-]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{24})$/.exec(token);
      if (!match) return null;
      const [, packageId, expires, given] = match;
      if (Number(expires) * 1000 < now().getTime()) return null;
      const expected = Buffer.from(signature(await key(), `${packageId}.${expires}`));
      const actual = Buffer.from(given!);
      return actual.length === expected.length && timingSafeEqual(actual, expected)
        ? packageId!
        : null;
    },
  };
}

export type ContentLinks = ReturnType<typeof createContentLinks>;
