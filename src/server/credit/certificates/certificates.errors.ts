import { CERTIFICATE_NOT_FOUND } from "../../../contract";
import { conflict, forbidden, notFound } from "../../plugins/errors";

export const certificateNotFound = () => notFound("certificates.not_found", CERTIFICATE_NOT_FOUND);
export const certificateAlreadyRevoked = () =>
  conflict("certificates.already_revoked", "This certificate is already revoked.");
export const notYourTranscript = () =>
  forbidden("certificates.not_your_transcript", "You can only view your own transcript.");
export const learnerNotFound = () => notFound("learners.not_found", "Learner not found.");
