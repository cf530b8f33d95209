import { MESSAGES, PUBLISH_MESSAGES } from "../../../contract";
import { badRequest, conflict, invalidField, notFound } from "../../plugins/errors";

export const courseNotFound = () => notFound("courses.not_found", MESSAGES.courseNotFound);
export const moduleNotFound = () => notFound("courses.module_not_found", "Module not found");
export const moduleIdTaken = () =>
  conflict("courses.module_id_taken", "A module with this id already exists in the course.");
/** A course edit sending back the thumbnail another edit replaced (and deleted) since. */
export const thumbnailChanged = () =>
  conflict(
    "courses.thumbnail_changed",
    "This course's thumbnail was changed while you were editing it: reload and try again.",
  );
/** An edit made against what the module played before another edit replaced it. */
export const moduleChanged = () =>
  conflict(
    "courses.module_changed",
    "This module's video or package was changed while you were editing it: reload and try again.",
  );
export const moduleIdRetired = () =>
  conflict(
    "courses.module_id_taken",
    "A module with this id was in the course before: a new module needs a new id.",
  );
export const publishNeedsModules = () =>
  conflict(
    "courses.publish_needs_modules",
    "A course needs at least one module before it can be published.",
  );
export const publishNeedsConfirmation = () =>
  conflict("courses.publish_needs_confirmation", PUBLISH_MESSAGES.manualCompletion);
export const publishNeedsCreditLengthReason = () =>
  conflict("courses.publish_needs_confirmation", PUBLISH_MESSAGES.creditLengthReasonNeeded);
/** A check that must be fixed before publishing, in its own words. */
export const publishBlocked = (message: string) => conflict("courses.publish_blocked", message);
export const publishedNeedsModules = () =>
  conflict("courses.published_needs_modules", "A published course must keep at least one module.");
export const thumbnailNotUploaded = () =>
  invalidField("courses.thumbnail_not_uploaded", "thumbnail", "Upload the thumbnail image first.");
export const videoNotUploaded = () =>
  invalidField("courses.video_not_uploaded", "videoUrl", "Upload the module's video first.");
/** A module made a package module without naming the package's upload. */
export const packageNotChosen = () =>
  invalidField(
    "modules.package_not_uploaded",
    "packagePath",
    "Upload the module's package (a .zip file) first.",
  );
export const notPublished = () =>
  badRequest("courses.not_published", "This course is not published, so it cannot be unpublished.");
export const orderNotModules = (problem: string) =>
  invalidField(
    "courses.order_mismatch",
    "moduleIds",
    `${problem} List every module of the course exactly once.`,
  );
export const creditTypeNotFound = () =>
  invalidField(
    "courses.credit_type_not_found",
    "types",
    "A credit type is not one of this course's: reload the page and try again.",
  );
