import { z } from "zod";

/**
 * Content packages: a module whose content is a SCORM 1.2, SCORM 2004 or cmi5 package,
 * uploaded as one `.zip` through the upload flow and checked whole when its module is saved.
 */

/** The largest `.zip` an administrator may upload, as for videos. */
export const PACKAGE_MAX_BYTES = 524_288_000;
export const PACKAGE_TYPES = ["application/zip"] as const;
export const PACKAGE_FILE_EXTENSION = ".zip";
/**
 * A package may hold at most this many entries (files and folders) and expand to at most
 * this many bytes: far beyond what authoring tools export (a few thousand files, about the
 * size of the `.zip` for media-heavy courses), small enough that a crafted archive (a zip
 * bomb) cannot fill the portal's storage.
 */
export const PACKAGE_MAX_ENTRIES = 20_000;
export const PACKAGE_MAX_EXPANDED_BYTES = 2_147_483_648;

/** The longest identifier of a package's item: the player names the item in its address. */
export const PACKAGE_ITEM_ID_MAX = 255;

/** The standard a package follows, as detected from its manifest. */
export const packageStandardSchema = z.enum(["scorm12", "scorm2004", "cmi5"]);
export type PackageStandard = z.infer<typeof packageStandardSchema>;

/** What a module plays: the spec's video, or a package of either family. */
export const moduleKindSchema = z.enum(["video", "scorm", "cmi5"]);
export type ModuleKind = z.infer<typeof moduleKindSchema>;

/** The module kind a standard belongs to: both SCORM editions are "scorm". */
export const moduleKindOf = (standard: PackageStandard): Exclude<ModuleKind, "video"> =>
  standard === "cmi5" ? "cmi5" : "scorm";

/**
 * A package as a course shows it: its standard, its title, and what it launches in order (a
 * SCORM organization's items that launch a SCO or an asset; a cmi5 course's AUs).
 */
export const packageSummarySchema = z.object({
  standard: packageStandardSchema,
  title: z.string(),
  items: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type PackageSummary = z.infer<typeof packageSummarySchema>;

export const PACKAGE_STANDARD_LABELS: Record<PackageStandard, string> = {
  scorm12: "SCORM 1.2",
  scorm2004: "SCORM 2004",
  cmi5: "cmi5",
};
