import { CAPTION_MESSAGES, MESSAGES } from "../../../contract";
import { AppError, badRequest, conflict, forbidden, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound(MESSAGES.courseNotFound);
export const moduleNotFound = () => notFound("Module not found");
export const moduleLocked = () => forbidden(CAPTION_MESSAGES.moduleLocked);
export const trackNotFound = () => notFound(CAPTION_MESSAGES.trackNotFound);
export const tooManyTracks = () => conflict(CAPTION_MESSAGES.tooMany);
export const notVtt = () => new AppError(415, CAPTION_MESSAGES.notVtt);
export const captionTooLarge = () => new AppError(413, CAPTION_MESSAGES.tooLarge);
/** The checker's message names the first bad line ("Line 6: …"), which is what to fix. */
export const badCaptionFile = (message: string) => badRequest(message);
