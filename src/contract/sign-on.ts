import { z } from "zod";
import { emailSchema } from "./auth";
import { MESSAGES } from "./messages";

/**
 * Single sign-on through the organisation's identity providers (OpenID Connect or SAML 2.0):
 * what administrators enter in Settings, what the sign-in page reads, and why a sign-on
 * was refused.
 */
export const SIGN_ON_PROTOCOLS = ["oidc", "saml"] as const;
export type SignOnProtocolName = (typeof SIGN_ON_PROTOCOLS)[number];

export const SIGN_ON_PROTOCOL_LABELS: Record<SignOnProtocolName, string> = {
  oidc: "OpenID Connect",
  saml: "SAML 2.0",
};

/** Why a sign-on was refused: the sign-in page reads it from `?signOnError=`. */
export const SIGN_ON_REFUSALS = {
  restricted: MESSAGES.restricted,
  not_registered: MESSAGES.accessDenied,
  request_unknown:
    "This sign-in link has expired or was started in another browser. Please try again.",
  cancelled: "Sign-in was cancelled or refused at the identity provider. Please try again.",
  response_invalid: "The identity provider's answer could not be verified. Please try again.",
  replayed: "This sign-in was already used. Please sign in again.",
  email_missing: "The identity provider did not share a verified email address for your account.",
  domain_not_served: "This identity provider does not sign in people of your email's domain.",
  provider_unavailable:
    "The identity provider could not be reached or is no longer set up. Please try again later.",
  link_conflict: "This identity provider account is already linked to another person in Credo.",
} as const;
export type SignOnRefusal = keyof typeof SIGN_ON_REFUSALS;
export const SIGN_ON_REFUSAL_REASONS = Object.keys(SIGN_ON_REFUSALS) as [
  SignOnRefusal,
  ...SignOnRefusal[],
];

const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    "Enter a domain such as example.com",
  );

/** A claim or attribute name: an identifier or a URI (SAML attribute names often are). */
const attributeName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\w:./#-]+$/, "Enter a claim or attribute name");

const commonFields = {
  name: z.string().trim().min(1, "Name is required").max(80),
  domains: z
    .array(domainSchema)
    .max(50)
    .default([])
    .transform((list) => [...new Set(list)]),
  createsLearners: z.boolean().default(false),
};

export const oidcProviderInputSchema = z.object({
  protocol: z.literal("oidc"),
  ...commonFields,
  issuer: z.url({ protocol: /^https?$/ }).max(500),
  clientId: z.string().trim().min(1, "Client ID is required").max(500),
  /** Write-only: left out when editing, the secret already set is kept. */
  clientSecret: z.string().min(1).max(2000).optional(),
  scopes: z
    .string()
    .trim()
    .max(500)
    .regex(/^(\S+ )*openid( \S+)*$/, "Scopes must include openid")
    .default("openid email profile"),
  emailClaim: attributeName.default("email"),
  nameClaim: attributeName.default("name"),
});

export const samlProviderInputSchema = z.object({
  protocol: z.literal("saml"),
  ...commonFields,
  metadataXml: z.string().trim().min(1).max(500_000).optional(),
  metadataUrl: z
    .url({ protocol: /^https?$/ })
    .max(1000)
    .optional(),
  /** The NameID is used when it is an email address and this attribute is absent. */
  emailAttribute: attributeName.default("email"),
  nameAttribute: attributeName.default("name"),
});

/** POST /api/identity-providers and PATCH /api/identity-providers/:id: the whole settings. */
export const identityProviderInputSchema = z.discriminatedUnion("protocol", [
  oidcProviderInputSchema,
  samlProviderInputSchema,
]);
export type IdentityProviderInput = z.input<typeof identityProviderInputSchema>;
export type ParsedIdentityProviderInput = z.output<typeof identityProviderInputSchema>;

const providerCommon = {
  id: z.string(),
  name: z.string(),
  domains: z.array(z.string()),
  createsLearners: z.boolean(),
  /** Whether a secret (client secret, signing key) is stored; secrets are never sent. */
  secretSet: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const identityProviderSchema = z.discriminatedUnion("protocol", [
  z.object({
    protocol: z.literal("oidc"),
    ...providerCommon,
    issuer: z.string(),
    clientId: z.string(),
    scopes: z.string(),
    emailClaim: z.string(),
    nameClaim: z.string(),
    /** The redirect URI to register with the provider. */
    redirectUri: z.string(),
  }),
  z.object({
    protocol: z.literal("saml"),
    ...providerCommon,
    metadataXml: z.string().nullable(),
    metadataUrl: z.string().nullable(),
    emailAttribute: z.string(),
    nameAttribute: z.string(),
    /** The service provider's metadata, entity id and assertion consumer service URL. */
    metadataLink: z.string(),
    entityId: z.string(),
    acsUrl: z.string(),
  }),
]);
export type IdentityProvider = z.infer<typeof identityProviderSchema>;

export const identityProviderListSchema = z.object({ providers: z.array(identityProviderSchema) });
export const identityProviderResponseSchema = z.object({ provider: identityProviderSchema });

/** GET /api/sign-on/providers: what the sign-in page offers, to anyone. */
export const signOnProviderSchema = z.object({
  id: z.string(),
  name: z.string(),
  protocol: z.enum(SIGN_ON_PROTOCOLS),
});
export type SignOnProvider = z.infer<typeof signOnProviderSchema>;
export const signOnProvidersSchema = z.object({ providers: z.array(signOnProviderSchema) });

export const signOnDiscoverBodySchema = z.object({ email: emailSchema });
export const signOnDiscoverResponseSchema = z.object({
  provider: z.object({ id: z.string(), name: z.string() }).nullable(),
});

export const signOnStartQuerySchema = z.object({
  purpose: z.enum(["sign-in", "link"]).default("sign-in"),
});

/** GET /api/sign-on/links: the providers the signed-in user's account is linked to. */
export const signOnLinksSchema = z.object({
  links: z.array(z.object({ providerId: z.string(), name: z.string(), linkedAt: z.string() })),
});

/** GET /api/sign-on/users/:id: how a user's account relates to single sign-on (administrators). */
export const signOnUserSchema = z.object({
  /** Set when an identity provider created the learner; `providerName` null once removed. */
  createdBySignOn: z.object({ providerName: z.string().nullable() }).nullable(),
  links: signOnLinksSchema.shape.links,
});
export type SignOnUser = z.infer<typeof signOnUserSchema>;
