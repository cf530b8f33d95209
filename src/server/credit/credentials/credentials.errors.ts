import { CERTIFICATE_NOT_FOUND } from "../../../contract";
import { forbidden, notFound } from "../../plugins/errors";

/** The same answer as the certificate's own lookup: a code that names nothing. */
export const credentialNotFound = () => notFound("credentials.not_found", CERTIFICATE_NOT_FOUND);
export const notYourCredential = () =>
  forbidden("credentials.not_yours", "You can only download your own credentials.");
export const statusListNotFound = () =>
  notFound("credentials.status_list_not_found", "No status list has this number.");
