import { badRequest, notFound } from "../../plugins/errors";

export const signatureNotFound = () =>
  notFound("credit.signature_not_found", "Signature not found.");
export const notAnImage = () =>
  badRequest("credit.signature_not_image", "Upload a PNG or JPEG image of at most 150 KB.");
