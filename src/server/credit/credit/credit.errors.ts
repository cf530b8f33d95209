import { IMAGE_MAX_SIDE_PX } from "../../../contract";
import { badRequest, conflict, notFound } from "../../plugins/errors";

export const signatureNotFound = () =>
  notFound("credit.signature_not_found", "Signature not found.");
export const notAnImage = () =>
  badRequest(
    "credit.signature_not_image",
    `Upload a PNG or JPEG image of at most 150 KB and ${IMAGE_MAX_SIDE_PX} × ${IMAGE_MAX_SIDE_PX} pixels.`,
  );
export const fieldsOfStudyMismatch = (message: string) =>
  conflict("credit.fields_of_study_mismatch", message);
