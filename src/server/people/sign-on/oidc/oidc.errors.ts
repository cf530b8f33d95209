import { appError } from "../../../plugins/errors";

export const issuerInsecure = () =>
  appError(400, "sso.issuer_insecure", "The issuer must be an https:// address.");
export const issuerUnreachable = (detail: string) =>
  appError(
    400,
    "sso.issuer_unreachable",
    `The issuer's OpenID Connect discovery could not be read: ${detail}`,
  );
export const clientSecretRequired = () =>
  appError(400, "sso.client_secret_required", "Client secret is required.");
