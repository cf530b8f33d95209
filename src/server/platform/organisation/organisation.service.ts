import { LRUCache } from "lru-cache";
import {
  DEFAULT_DATE_FORMAT,
  logoUrl,
  type Organisation,
  type OrganisationBody,
} from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database, Executor } from "../../db/client";
import { createReadCache } from "../../db/read-cache";
import type { MailIssuer } from "../../mail/templates";
import type { ObjectsService } from "../objects/objects.service";
import { logoNotFound, logoNotUploaded } from "./organisation.errors";
import { createOrganisationRepository } from "./organisation.repository";
import type { OrganisationProfileRow } from "./organisation.table";

export interface OrganisationServiceDeps {
  db: Database;
  /** The objects feature: logos are uploads of kind 'logo', checked by their bytes. */
  objects: Pick<ObjectsService, "findReady" | "bytesOf">;
  /** PRODUCT_NAME: the issuer until an administrator names the organisation. */
  productName: string;
  /** Keeps the cached profile exact across instances; without it every read goes to the database. */
  changes?: ChangeFeed;
}

const objectPath = (id: string) => `/objects/uploads/${id}`;
const CACHE_KEY = "profile";

/**
 * The organisation profile: the issuer of every certificate, transcript and email. Read on
 * every certificate, transcript and mail, and changed perhaps once a year, so it is cached
 * like the sessions and the course catalogue: a change in any instance drops it at commit
 * (migration 0020).
 */
export function createOrganisationService(deps: OrganisationServiceDeps) {
  const repo = createOrganisationRepository(deps.db);
  const cache = deps.changes
    ? createReadCache<Organisation>({
        feed: deps.changes,
        tables: ["organisation_profile"],
        tagsOf: () => ["organisation_profile:1"],
        max: 1,
        ttlMs: 10 * 60_000,
      })
    : undefined;
  // A logo's object never changes (a new upload is a new object), so its bytes are kept.
  const logos = new LRUCache<string, { bytes: Buffer; contentType: string }>({
    maxSize: 8 * 1024 * 1024,
    sizeCalculation: (logo) => Math.max(1, logo.bytes.byteLength),
  });

  function toOrganisation(row: OrganisationProfileRow | undefined): Organisation {
    const name = row?.name ?? "";
    const logoId = row?.logoId ?? null;
    return {
      name,
      logoPath: logoId ? objectPath(logoId) : null,
      address: row?.address ?? "",
      contactEmail: row?.contactEmail ?? "",
      dateFormat: row?.dateFormat ?? DEFAULT_DATE_FORMAT,
      issuerName: name || deps.productName,
      logoUrl: logoId ? logoUrl(logoId) : null,
    };
  }

  const load = async (db: Executor = deps.db) =>
    toOrganisation(await createOrganisationRepository(db).find());
  /**
   * The profile as it stands: the one read of certificates, transcripts and mails. Inside a
   * transaction, pass it: on PGlite a read beside an open transaction waits for it to end.
   */
  const profile = async (db?: Executor): Promise<Organisation> =>
    (cache ? await cache.get(CACHE_KEY, () => load(db)) : undefined) ?? load(db);

  /** A stored logo's id, from the profile's logo path. */
  const logoIdOf = (organisation: Organisation) =>
    organisation.logoPath?.slice("/objects/uploads/".length) ?? null;

  async function findLogo(id: string) {
    const kept = logos.get(id);
    if (kept) return kept;
    const object = await deps.objects.findReady(objectPath(id), "logo");
    if (!object?.contentType) return undefined;
    const found = { bytes: await deps.objects.bytesOf(object), contentType: object.contentType };
    logos.set(id, found);
    return found;
  }

  return {
    profile,

    /** Saves the whole profile; a logo must be a finished, checked upload of kind 'logo'. */
    async save(body: OrganisationBody): Promise<Organisation> {
      let logoId: string | null = null;
      if (body.logoPath) {
        const object = await deps.objects.findReady(body.logoPath, "logo");
        if (!object) throw logoNotUploaded();
        logoId = object.id;
      }
      await repo.save({
        name: body.name,
        logoId,
        address: body.address,
        contactEmail: body.contactEmail,
        dateFormat: body.dateFormat,
      });
      deps.changes?.announce("organisation_profile", "1");
      return load();
    },

    /** What a certificate records of its issuer when it is issued, in the issuing transaction. */
    async issuer(tx: Executor): Promise<{ name: string; logoId: string | null }> {
      const organisation = await profile(tx);
      return { name: organisation.issuerName, logoId: logoIdOf(organisation) };
    },

    /** Who mails come from: the organisation, signing with its address and contact email. */
    async mailIssuer(): Promise<MailIssuer> {
      const o = await profile();
      const dateFormat = o.dateFormat;
      if (!o.name) return { name: o.issuerName, signature: [], dateFormat };
      const signature = [o.name, ...o.address.split(/\s*\n\s*/), o.contactEmail].filter(Boolean);
      return { name: o.name, fromName: o.name, signature, dateFormat };
    },

    /** A logo's image, for anyone (a verification page prints it); 404 for anything else. */
    async logo(id: string) {
      const found = await findLogo(id);
      if (!found) throw logoNotFound();
      return found;
    },

    /** A logo's bytes for a PDF to embed; null when it is gone. */
    logoBytes: async (id: string): Promise<Uint8Array | null> =>
      (await findLogo(id))?.bytes ?? null,
  };
}

export type OrganisationService = ReturnType<typeof createOrganisationService>;
