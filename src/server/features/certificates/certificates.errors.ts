import { CERTIFICATE_NOT_FOUND } from "../../../contract";
import { conflict, forbidden, notFound } from "../../plugins/errors";

export const certificateNotFound = () => notFound(CERTIFICATE_NOT_FOUND);
export const certificateAlreadyRevoked = () => conflict("This certificate is already revoked.");
export const notYourTranscript = () => forbidden("You can only view your own transcript.");
export const learnerNotFound = () => notFound("Learner not found.");
