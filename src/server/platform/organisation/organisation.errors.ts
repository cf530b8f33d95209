import { ORGANISATION_MESSAGES } from "../../../contract";
import { invalidField, notFound } from "../../plugins/errors";

export const logoNotUploaded = () =>
  invalidField("organisation.logo_not_uploaded", "logoPath", ORGANISATION_MESSAGES.logoNotUploaded);
export const logoNotFound = () =>
  notFound("organisation.logo_not_found", ORGANISATION_MESSAGES.logoNotFound);
