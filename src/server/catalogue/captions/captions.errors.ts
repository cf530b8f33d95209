import { CAPTION_MESSAGES, MESSAGES } from "../../../contract";
import { appError, badRequest, conflict, forbidden, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const moduleNotFound = () => notFound("courses.module_not_found", "Module not found");
export const moduleLocked = () =>
  forbidden("captions.module_locked", CAPTION_MESSAGES.moduleLocked);
export const trackNotFound = () => notFound("captions.not_found", CAPTION_MESSAGES.trackNotFound);
export const tooManyTracks = () => conflict("captions.too_many", CAPTION_MESSAGES.tooMany);
export const notVtt = () => appError(415, "captions.not_webvtt", CAPTION_MESSAGES.notVtt);
export const captionTooLarge = () => appError(413, "captions.too_large", CAPTION_MESSAGES.tooLarge);
/** The checker's message names the first bad line ("Line 6: …"), which is what to fix. */
export const badCaptionFile = (message: string) => badRequest("captions.invalid_file", message);
