import { appError } from "../../../plugins/errors";

export const metadataRequired = () =>
  appError(
    400,
    "sso.saml_metadata_required",
    "Paste the identity provider's metadata XML or enter its metadata URL.",
  );
export const metadataInvalid = (detail: string) =>
  appError(400, "sso.saml_metadata_invalid", `This is not usable SAML metadata: ${detail}`);
export const metadataUnreachable = (detail: string) =>
  appError(
    400,
    "sso.saml_metadata_unreachable",
    `The identity provider's metadata could not be read: ${detail}`,
  );
export const metadataInsecure = () =>
  appError(400, "sso.saml_metadata_insecure", "The metadata URL must be an https:// address.");
export const signingCertificateMissing = () =>
  appError(
    400,
    "sso.saml_signing_certificate_missing",
    "The metadata has no signing certificate, so no answer from this provider could be verified.",
  );
