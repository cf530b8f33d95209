import type { IdentityProviderInstance, ServiceProviderInstance } from "samlify";
import samlify from "samlify";
import { signOnUrls } from "../protocol";
import { validateSamlSchema } from "./saml-schema";

// Every message is checked against the SAML schemas before anything in it is read: a
// schema-invalid document is how most signature-wrapping attacks start.
samlify.setSchemaValidator({ validate: validateSamlSchema });

/** How far the provider's clock may be from ours when judging NotBefore and NotOnOrAfter. */
export const CLOCK_SKEW_MS = 60_000;

/** What a SAML provider keeps in its settings (nothing secret). */
export interface SamlSettings {
  /** The identity provider's metadata XML, as pasted or as read from `metadataUrl`. */
  metadataXml: string;
  /** Where the metadata was read from, when the administrator gave its address. */
  metadataUrl: string | null;
  /** The attribute that carries the email; the NameID serves when it is an email. */
  emailAttribute: string;
  nameAttribute: string;
  /** The identity provider's entity id, from its metadata. */
  idpEntityId: string;
  /** Credo's certificate for this provider, published in Credo's metadata. */
  spCertificate: string;
}

/** What a SAML provider keeps encrypted. */
export interface SamlSecrets {
  /** Signs Credo's requests and decrypts encrypted assertions. */
  spPrivateKey: string;
}

/** Credo's own addresses for one provider, which the administrator gives the identity provider. */
export function samlEndpoints(publicUrl: string, providerId: string) {
  const urls = signOnUrls(publicUrl, providerId);
  return {
    /** Credo's entity id is the address of its metadata, so the provider can always read it. */
    entityId: urls.samlEntityId,
    assertionConsumerService: urls.samlAcs,
    /** After single logout the provider sends the browser back to the sign-in page. */
    singleLogoutService: urls.afterLogout,
  };
}

/** The identity provider as its metadata describes it. */
export function identityProvider(
  metadata: string,
  options: { assertionEncrypted?: boolean } = {},
): IdentityProviderInstance {
  return samlify.IdentityProvider({
    metadata,
    isAssertionEncrypted: options.assertionEncrypted ?? false,
    // Some providers (Okta) accept only signed logout requests, and signing costs nothing.
    wantLogoutRequestSigned: true,
  });
}

/**
 * Credo as the service provider for one identity provider. Requests are signed when the
 * provider asks for signed requests (samlify refuses to send them otherwise); assertions must
 * always be signed, and may be encrypted to the same certificate.
 */
export function serviceProvider(input: {
  publicUrl: string;
  providerId: string;
  settings: SamlSettings;
  secrets: SamlSecrets;
  idp?: IdentityProviderInstance;
}): ServiceProviderInstance {
  const endpoints = samlEndpoints(input.publicUrl, input.providerId);
  const idp = input.idp ?? identityProvider(input.settings.metadataXml);
  return samlify.ServiceProvider({
    entityID: endpoints.entityId,
    authnRequestsSigned: idp.entityMeta.isWantAuthnRequestsSigned(),
    wantAssertionsSigned: true,
    wantLogoutResponseSigned: false,
    privateKey: input.secrets.spPrivateKey,
    encPrivateKey: input.secrets.spPrivateKey,
    signingCert: input.settings.spCertificate,
    encryptCert: input.settings.spCertificate,
    requestSignatureAlgorithm: samlify.Constants.algorithms.signature.RSA_SHA256,
    // The provider sends the NameID it was configured with (email, persistent id…).
    nameIDFormat: [samlify.Constants.namespace.format.unspecified],
    assertionConsumerService: [
      {
        Binding: samlify.Constants.namespace.binding.post,
        Location: endpoints.assertionConsumerService,
      },
    ],
    singleLogoutService: [
      {
        Binding: samlify.Constants.namespace.binding.redirect,
        Location: endpoints.singleLogoutService,
      },
    ],
    clockDrifts: [-CLOCK_SKEW_MS, CLOCK_SKEW_MS],
  });
}
