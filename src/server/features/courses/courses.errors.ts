import { MESSAGES } from "../../../contract";
import { badRequest, conflict, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound(MESSAGES.courseNotFound);
export const moduleNotFound = () => notFound("Module not found");
export const moduleIdTaken = () => conflict("A module with this id already exists in the course.");
export const publishNeedsModules = () =>
  conflict("A course needs at least one module before it can be published.");
export const publishedNeedsModules = () =>
  conflict("A published course must keep at least one module.");
export const thumbnailNotUploaded = () =>
  badRequest("thumbnail: upload the image first (it must be an uploaded image).");
export const videoNotUploaded = () =>
  badRequest("videoUrl: upload the video first (it must be an uploaded video).");
export const notPublished = () =>
  badRequest("This course is not published, so it cannot be unpublished.");
export const orderNotModules = (problem: string) =>
  badRequest(`moduleIds: ${problem} List every module of the course exactly once.`);
