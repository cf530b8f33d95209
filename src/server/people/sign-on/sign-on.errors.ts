import { appError, conflict, notFound } from "../../plugins/errors";

export const providerNotFound = () =>
  notFound("sso.provider_not_found", "This identity provider does not exist.");
export const protocolUnavailable = (protocol: string) =>
  appError(
    400,
    "sso.protocol_unavailable",
    `This portal cannot sign in through ${protocol === "saml" ? "SAML 2.0" : protocol} providers yet.`,
  );
export const protocolMismatch = () =>
  appError(
    400,
    "sso.protocol_mismatch",
    "A provider's protocol cannot be changed: add a new provider instead.",
  );
export const domainTaken = (domain: string) =>
  conflict("sso.domain_taken", `Another identity provider already serves ${domain}.`);
export const secretsKeyMissing = () =>
  appError(
    400,
    "sso.secrets_key_missing",
    "The server has no SECRETS_KEY to store this provider's secrets: set it and restart.",
  );
export const userNotFound = () => notFound("sso.user_not_found", "This user does not exist.");
