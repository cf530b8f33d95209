import type { FastifyBaseLogger } from "fastify";
import {
  moduleKindOf,
  PACKAGE_MAX_ENTRIES,
  PACKAGE_MAX_EXPANDED_BYTES,
  type PackageSummary,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { ObjectsService } from "../../platform";
import { AppError } from "../../plugins/errors";
import type { ObjectStore } from "../../storage/object-store";
import { contentTypeOf } from "./content-types";
import { inspectPackage, type PackageDescription } from "./package-inspection";
import { kindMismatch, packageNotUploaded } from "./packages.errors";
import { createPackagesRepository } from "./packages.repository";
import type { PackageRow, PackageStructure } from "./packages.table";
import { type ArchiveLimits, withArchive } from "./zip-archive";

export type PackageKind = "scorm" | "cmi5";

export interface PackagesServiceDeps {
  db: Database;
  /** Where the package's files are unpacked, beside the uploads. */
  store: ObjectStore;
  /** The uploads: the `.zip` a package comes from. */
  objects: Pick<ObjectsService, "findReady" | "withLocalFile" | "deleteByPaths">;
  /** The contract's limits unless a test of the limits sets smaller ones. */
  limits?: ArchiveLimits;
  log?: Pick<FastifyBaseLogger, "warn">;
}

/** A package as a module refers to it. */
export interface IntakenPackage {
  id: string;
  summary: PackageSummary;
  /** Whether this intake unpacked it (a module given the same upload again shares it). */
  created: boolean;
}

const summaryOf = (row: PackageRow): PackageSummary => ({
  standard: row.standard,
  title: row.title,
  items: row.items.map((item) => ({ id: item.id, title: item.title })),
});

/** The description as the table keeps it: the items apart from the rest of the structure. */
function rowValues(description: PackageDescription) {
  const { standard, version, title, items, ...structure } = description;
  return { standard, version, title, items, structure: structure as PackageStructure };
}

/** A refusal of the package itself (not of the kind asked, nor a failure of the portal). */
const refusesThePackage = (err: unknown) =>
  err instanceof AppError &&
  err.code.startsWith("modules.package_") &&
  err.code !== "modules.package_kind_mismatch" &&
  err.code !== "modules.package_not_uploaded";

/**
 * Content packages (SCORM 1.2, SCORM 2004, cmi5): an uploaded `.zip` is checked whole and
 * unpacked into the object store before a module may play it. The courses feature asks for
 * a package by its upload and keeps its id on the module.
 */
export function createPackagesService(deps: PackagesServiceDeps) {
  const { db, store, objects } = deps;
  const repo = createPackagesRepository(db);
  const limits = deps.limits ?? {
    maxEntries: PACKAGE_MAX_ENTRIES,
    maxExpandedBytes: PACKAGE_MAX_EXPANDED_BYTES,
  };

  /** Removes what an unpacking left; a failure to do so is logged, never hides the cause. */
  async function discard(id: string) {
    try {
      await store.deletePackage(id);
      await repo.delete(id);
    } catch (err) {
      deps.log?.warn({ err, packageId: id }, "package: could not remove a failed unpacking");
    }
  }

  async function unpack(path: string, kind: PackageKind, file: string): Promise<IntakenPackage> {
    return withArchive(file, limits, async (archive) => {
      const description = await inspectPackage(archive, kind);
      if (moduleKindOf(description.standard) !== kind) {
        throw kindMismatch(kind, description.standard);
      }
      const files = [...archive.files.values()];
      const row = await repo.insert({
        sourcePath: path,
        ...rowValues(description),
        fileCount: files.length,
        expandedBytes: files.reduce((sum, f) => sum + f.size, 0),
      });
      try {
        await archive.forEachFile((entry, content) =>
          store.writePackageFile(row.id, entry.path, content, {
            size: entry.size,
            contentType: contentTypeOf(entry.path),
          }),
        );
        const ready = await repo.markReady(row.id);
        if (!ready) throw new Error(`package ${row.id} vanished while it was unpacked`);
        return { id: ready.id, summary: summaryOf(ready), created: true };
      } catch (err) {
        await discard(row.id);
        throw err;
      }
    });
  }

  return {
    /**
     * The package of an uploaded `.zip` for a module of `kind`: unpacked and recorded the
     * first time, shared after. Refuses an upload that is not a ready package, a package
     * of the other kind, and every fault of the package (packages.errors.ts). A refused
     * package leaves nothing: not its files, not its row, not its upload.
     */
    async intake(input: { path: string; kind: PackageKind }): Promise<IntakenPackage> {
      const object = await objects.findReady(input.path, "package");
      if (!object) throw packageNotUploaded();
      const existing = await repo.findReadyBySource(input.path);
      if (existing) {
        if (moduleKindOf(existing.standard) !== input.kind) {
          throw kindMismatch(input.kind, existing.standard);
        }
        return { id: existing.id, summary: summaryOf(existing), created: false };
      }
      try {
        return await objects.withLocalFile(object, (file) => unpack(input.path, input.kind, file));
      } catch (err) {
        // Its bytes can never become a valid package: the upload goes with the refusal.
        if (refusesThePackage(err)) await objects.deleteByPaths([input.path]);
        throw err;
      }
    },

    /** Each package's summary as a course shows it, by id (read in `tx` when given). */
    async summaries(ids: string[], tx: Executor = db): Promise<Map<string, PackageSummary>> {
      const rows = await createPackagesRepository(tx).findByIds([...new Set(ids)]);
      return new Map(rows.map((row) => [row.id, summaryOf(row)]));
    },

    /** What a ready package launches and by what rules (the run times read it); else undefined. */
    async runOf(
      id: string,
    ): Promise<Pick<PackageRow, "id" | "standard" | "items" | "structure"> | undefined> {
      const [row] = await repo.findByIds([id]);
      if (row?.status !== "ready") return undefined;
      return { id: row.id, standard: row.standard, items: row.items, structure: row.structure };
    },

    /**
     * Deletes packages no module plays any more (the caller knows): the row first, which a
     * module still referring to it keeps in place, then the files, then the upload when no
     * other package came from it.
     */
    async release(ids: string[]): Promise<void> {
      for (const id of new Set(ids)) {
        let row: PackageRow | undefined;
        try {
          row = await repo.delete(id);
        } catch (err) {
          deps.log?.warn({ err, packageId: id }, "package: still in use, kept");
          continue;
        }
        if (!row) continue;
        await store.deletePackage(id);
        if (!(await repo.sourceShared(row.sourcePath, id))) {
          await objects.deleteByPaths([row.sourcePath]);
        }
      }
    },
  };
}

export type PackagesService = ReturnType<typeof createPackagesService>;
