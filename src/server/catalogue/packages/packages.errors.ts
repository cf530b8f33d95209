import {
  PACKAGE_MAX_ENTRIES,
  PACKAGE_MAX_EXPANDED_BYTES,
  PACKAGE_STANDARD_LABELS,
  type PackageStandard,
} from "../../../contract";
import { forbidden, invalidField, notFound } from "../../plugins/errors";

/**
 * Why a package cannot be a module's content, each with its own code and words that say
 * what to do. Every refusal names the package's field, `packagePath`.
 */
const refuse = (code: Parameters<typeof invalidField>[0], text: string) =>
  invalidField(code, "packagePath", text);

const megabytes = (bytes: number) => `${Math.round(bytes / 1_048_576).toLocaleString("en-US")} MB`;
const quoted = (text: string) => `"${text.length > 120 ? `${text.slice(0, 117)}...` : text}"`;

export const packageNotUploaded = () =>
  refuse("modules.package_not_uploaded", "Upload the module's package (a .zip file) first.");

export const notAZip = () =>
  refuse(
    "modules.package_not_zip",
    "This file is not a zip archive. Export the course from its authoring tool as a SCORM or cmi5 package (.zip) and upload that file.",
  );

export const noManifest = () =>
  refuse(
    "modules.package_no_manifest",
    "The package has no imsmanifest.xml (SCORM) or cmi5.xml (cmi5) at its top level. Export the course as a SCORM or cmi5 package, not as a web page or a folder of files.",
  );

export const manifestInFolder = (manifest: string, folder: string) =>
  refuse(
    "modules.package_manifest_in_folder",
    `The package's ${manifest} is inside the folder ${quoted(`${folder}/`)} instead of at its top level. Zip the contents of that folder, not the folder itself, and upload the new .zip.`,
  );

export const aiccPackage = () =>
  refuse(
    "modules.package_aicc",
    "This is an AICC package, which Credo does not support. Export the course as SCORM 1.2, SCORM 2004 or cmi5 instead.",
  );

export const noOrganization = () =>
  refuse(
    "modules.package_no_organization",
    "The package's imsmanifest.xml has no organization, so there is no course structure to play. Export the course again from its authoring tool: a SCORM package needs at least one organization with items.",
  );

export const unknownVersion = (stated: string | null) =>
  refuse(
    "modules.package_unknown_version",
    stated
      ? `The package says it follows SCORM version ${quoted(stated)}, which Credo does not know. Export it as SCORM 1.2 or SCORM 2004 (3rd or 4th edition).`
      : "The package's imsmanifest.xml does not say which SCORM version it follows (no schemaversion and no SCORM namespace). Export it as SCORM 1.2 or SCORM 2004 (3rd or 4th edition).",
  );

export const nothingToLaunch = (manifest: string) =>
  refuse(
    "modules.package_nothing_to_launch",
    `The package's ${manifest} describes nothing to launch: no item of the course points at a file to open. Export the course again from its authoring tool.`,
  );

export const launchMissing = (item: string, file: string, sameNameOtherCase?: string) =>
  refuse(
    "modules.package_launch_missing",
    `${item} launches ${quoted(file)}, which is not in the package.${
      sameNameOtherCase
        ? ` The package has ${quoted(sameNameOtherCase)}: names must match letter for letter, capitals included.`
        : ""
    } Export the course again, or fix the manifest and zip it again.`,
  );

export const unsafePath = (path: string) =>
  refuse(
    "modules.package_unsafe_path",
    `The package names a file outside itself: ${quoted(path)}. A package's files and launch addresses must stay inside the package (no absolute paths, no "..", no other sites). Export the course again from its authoring tool.`,
  );

export const tooManyFiles = (limit = PACKAGE_MAX_ENTRIES) =>
  refuse(
    "modules.package_too_many_files",
    `The package holds more than ${limit.toLocaleString("en-US")} files and folders, the most a package may have. Remove what the course does not use, or split it into several modules.`,
  );

export const tooLarge = (limit = PACKAGE_MAX_EXPANDED_BYTES) =>
  refuse(
    "modules.package_too_large",
    `Unpacked, the package would take more than ${megabytes(limit)}, the most a package may expand to (or its sizes are false). Reduce its media, or split it into several modules.`,
  );

export const invalidManifest = (manifest: string, problem: string) =>
  refuse(
    "modules.package_invalid_manifest",
    `The package's ${manifest} is not valid: ${problem} Export the course again from its authoring tool.`,
  );

export const unreadable = (problem: string) =>
  refuse(
    "modules.package_unreadable",
    `Part of the package cannot be read: ${problem} Make the .zip again without a password, with ordinary compression, and upload it.`,
  );

export const kindMismatch = (asked: "scorm" | "cmi5", found: PackageStandard) =>
  refuse(
    "modules.package_kind_mismatch",
    `This is a ${PACKAGE_STANDARD_LABELS[found]} package, not a ${asked === "cmi5" ? "cmi5" : "SCORM"} one. Choose ${found === "cmi5" ? "cmi5" : "SCORM"} as the module's content, or upload the course's ${asked === "cmi5" ? "cmi5" : "SCORM"} export.`,
  );

export const contentLinkExpired = () =>
  forbidden(
    "content.link_expired",
    "This link to the module's content has expired or is not valid: open the module again.",
  );

export const contentFileNotFound = () =>
  notFound("content.not_found", "The package has no such file.");
