import { IMAGE_MAX_SIDE_PX } from "../../../contract";
import { appError, badRequest, invalidField, notFound } from "../../plugins/errors";

export const fileTooLarge = (maxBytes: number) =>
  appError(
    413,
    "uploads.too_large",
    `File is too large (maximum ${Math.round(maxBytes / 1048576)} MB).`,
  );
export const fileLargerThanDeclared = () =>
  appError(
    413,
    "uploads.larger_than_declared",
    "The file is larger than the size declared for its upload.",
  );
export const fileTypeNotAllowed = (kind: string) =>
  appError(
    415,
    "uploads.type_not_allowed",
    kind === "package"
      ? "A package must be a .zip file: export the course as a SCORM or cmi5 .zip and upload that."
      : `This file type is not allowed for a ${kind}.`,
  );
export const imageTooLarge = () =>
  appError(
    413,
    "uploads.too_large",
    `The image is larger than ${IMAGE_MAX_SIDE_PX} × ${IMAGE_MAX_SIDE_PX} pixels.`,
  );
export const fileContentMismatch = () =>
  appError(415, "uploads.content_mismatch", "The file's contents do not match an allowed type.");
export const uploadNotFound = () => notFound("uploads.not_found", "Upload not found.");
export const uploadIncomplete = () =>
  badRequest(
    "uploads.incomplete",
    "The upload ended before the whole file arrived. Send the file again.",
  );
export const uploadNotFinished = () =>
  appError(409, "uploads.not_finished", "The upload has not finished or was refused.");
export const notAnIssuedObject = () =>
  invalidField(
    "uploads.not_issued",
    "objectURL",
    "This file was not uploaded through this portal: upload it again.",
  );
export const objectNotFound = () => notFound("objects.not_found", "File not found.");
