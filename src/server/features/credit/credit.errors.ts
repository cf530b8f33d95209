import { badRequest, notFound } from "../../plugins/errors";

export const signatureNotFound = () => notFound("Signature not found.");
export const notAnImage = () => badRequest("Upload a PNG or JPEG image of at most 150 KB.");
