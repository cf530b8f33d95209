import { AppError, badRequest, notFound } from "../../plugins/errors";

export const fileTooLarge = (maxBytes: number) =>
  new AppError(413, `File is too large (maximum ${Math.round(maxBytes / 1048576)} MB).`);
export const fileLargerThanDeclared = () =>
  new AppError(413, "The file is larger than the size declared for its upload.");
export const fileTypeNotAllowed = (kind: string) =>
  new AppError(415, `This file type is not allowed for a ${kind}.`);
export const fileContentMismatch = () =>
  new AppError(415, "The file's contents do not match an allowed type.");
export const uploadNotFound = () => notFound("Upload not found.");
export const uploadIncomplete = () =>
  badRequest("The upload ended before the whole file arrived. Send the file again.");
export const uploadNotFinished = () =>
  new AppError(409, "The upload has not finished or was refused.");
export const notAnIssuedObject = () =>
  badRequest("objectURL: not an upload issued by this portal.");
export const objectNotFound = () => notFound("File not found.");
