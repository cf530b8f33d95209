import type { ModuleEditBody } from "../../../contract";
import type { Executor } from "../../db/client";
import type { ObjectsService } from "../../platform";
import type { PackagesService } from "../packages/packages.service";
import { packageNotChosen, videoNotUploaded } from "./courses.errors";
import type { PackageSummaries } from "./courses.mapper";
import type { CoursesRepository } from "./courses.repository";
import type { ModuleRow } from "./courses.table";

/**
 * What courses and modules play, and what they leave behind: videos and thumbnails (the
 * objects feature), SCORM and cmi5 packages (the packages feature). Files and packages are
 * checked before an edit's transaction, since both features work outside it, and deleted
 * after it committed, once nothing uses them any more.
 */
export function createCourseContent({
  repo,
  objects,
  packages,
}: {
  repo: Pick<CoursesRepository, "isObjectInUse" | "isPackageInUse">;
  objects: Pick<ObjectsService, "findReady" | "deleteByPaths">;
  packages: Pick<PackagesService, "intake" | "summaries" | "release">;
}) {
  /** The module's uploaded video, with its length as read from the file. */
  async function readyVideo(path: string) {
    const video = await objects.findReady(path, "video");
    if (!video) throw videoNotUploaded();
    return video;
  }

  return {
    /** The packages the package modules among these rows play, by id (in `tx` when given). */
    async packagesOf(moduleRows: ModuleRow[], tx?: Executor): Promise<PackageSummaries> {
      const ids = moduleRows.flatMap((m) => (m.packageId ? [m.packageId] : []));
      return ids.length ? packages.summaries(ids, tx) : new Map();
    },

    /** Deletes objects no course or module uses any more (after the change committed). */
    async releaseObjects(paths: (string | null)[]) {
      const unused: string[] = [];
      for (const path of new Set(paths)) {
        if (path && !(await repo.isObjectInUse(path))) unused.push(path);
      }
      await objects.deleteByPaths(unused);
    },

    /** Deletes packages no module plays any more (after the change committed). */
    async releasePackages(ids: (string | null)[]) {
      const unused: string[] = [];
      for (const id of new Set(ids)) {
        if (id && !(await repo.isPackageInUse(id))) unused.push(id);
      }
      if (unused.length) await packages.release(unused);
    },

    /**
     * A module's content as its columns: a video (checked to be uploaded, with its length as
     * read from the file), or a package (checked whole and unpacked by the packages feature).
     * `current` is the module's content before an edit, which is kept when unchanged.
     */
    async moduleContent(
      body: ModuleEditBody,
      current?: ModuleRow,
    ): Promise<{
      values: Pick<ModuleRow, "kind" | "videoUrl" | "videoSeconds" | "packageId">;
      /** A package this request unpacked: released if the module is not saved after all. */
      created?: string;
    }> {
      if (!("videoUrl" in body)) {
        if (!body.packagePath) {
          // An edit that keeps the package it plays.
          if (current?.kind !== body.kind || !current.packageId) throw packageNotChosen();
          return {
            values: {
              kind: body.kind,
              videoUrl: null,
              videoSeconds: null,
              packageId: current.packageId,
            },
          };
        }
        const intaken = await packages.intake({ path: body.packagePath, kind: body.kind });
        return {
          values: { kind: body.kind, videoUrl: null, videoSeconds: null, packageId: intaken.id },
          created: intaken.created ? intaken.id : undefined,
        };
      }
      if (current?.kind === "video" && current.videoUrl === body.videoUrl) {
        return {
          values: {
            kind: "video",
            videoUrl: body.videoUrl,
            videoSeconds: current.videoSeconds,
            packageId: null,
          },
        };
      }
      const video = await readyVideo(body.videoUrl);
      return {
        values: {
          kind: "video",
          videoUrl: body.videoUrl,
          videoSeconds: video.durationSeconds,
          packageId: null,
        },
      };
    },
  };
}

export type CourseContent = ReturnType<typeof createCourseContent>;
