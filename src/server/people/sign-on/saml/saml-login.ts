import type { IdentityProviderInstance, ServiceProviderInstance } from "samlify";
import samlify from "samlify";
import { CLOCK_SKEW_MS, identityProvider } from "./saml-entities";

/** The browser's way to the provider's sign-in page, and the request id to expect back. */
export function createLoginRequest(
  sp: ServiceProviderInstance,
  idp: IdentityProviderInstance,
  relayState: string,
): { redirectTo: string; requestId: string } {
  const request = sp.createLoginRequest(idp, "redirect", { relayState });
  return { redirectTo: request.context, requestId: request.id };
}

/** Who a verified assertion says signed in. */
export interface SamlIdentity {
  /** The NameID: the provider's name for the person, stable for that provider. */
  subject: string;
  email?: string;
  name?: string;
  sessionIndex?: string;
  /** The assertion's id, usable once. */
  assertionId: string;
  /** Until when the assertion could be presented again, for keeping its id. */
  assertionExpiresAt: Date;
}

/** A login response that must not sign anyone in; `detail` says which check it failed. */
export class SamlResponseInvalid extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/**
 * The provider answered that nobody signed in (a status other than Success): the person
 * cancelled or was refused there. `detail` names the provider's status codes.
 */
export class SamlSignInFailed extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** samlify's refusals, in the words an administrator reading the audit trail needs. */
const LIBRARY_REFUSALS: [RegExp, string][] = [
  [/WRAPPING|multiple Signature/i, "signature wrapping refused"],
  [/VALIDATE_XML|INVALID_XML/, "not a valid SAML document (schema)"],
  [/SIGNATURE|CERTIFICATE|REFERENCES/i, "signature not valid for the provider's certificate"],
  [/UNMATCH_ISSUER/, "issued by another provider"],
  [/SUBJECT_UNCONFIRMED|EXPIRED_SESSION/, "outside its validity period (NotBefore/NotOnOrAfter)"],
  [/ENCRYPTED|DECRYPT|decrypt/, "encrypted assertion could not be decrypted"],
];

function libraryRefusal(error: unknown): SamlResponseInvalid | SamlSignInFailed {
  const message = error instanceof Error ? error.message : String(error);
  const failed = /FAILED_STATUS with top tier code: (\S+), second tier code: (\S+)/.exec(message);
  if (failed) {
    const codes = failed.slice(1).map((code) => code.replace(/^urn:.*:status:/, ""));
    return new SamlSignInFailed(`the provider reported a failed sign-in (${codes.join(", ")})`);
  }
  const found = LIBRARY_REFUSALS.find(([pattern]) => pattern.test(message));
  return new SamlResponseInvalid(
    found ? found[1] : `refused by the SAML library (${message.slice(0, 80)})`,
  );
}

/** The parts of an assertion samlify does not extract itself, read from the signed assertion. */
const SUBJECT_CONFIRMATION_FIELDS = (assertion: string) => [
  { key: "assertion", localPath: ["Assertion"], attributes: ["ID"], shortcut: assertion },
  {
    key: "confirmation",
    localPath: ["Assertion", "Subject", "SubjectConfirmation", "SubjectConfirmationData"],
    attributes: ["Recipient", "InResponseTo", "NotOnOrAfter"],
    shortcut: assertion,
  },
];

const EMAIL_ATTRIBUTES = [
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "urn:oid:0.9.2342.19200300.100.1.3",
  "email",
  "mail",
  "emailAddress",
];
const NAME_ATTRIBUTES = [
  "http://schemas.microsoft.com/identity/claims/displayname",
  "urn:oid:2.16.840.1.113730.3.1.241",
  "displayName",
  "name",
];

/**
 * Verifies a login response posted to the assertion consumer service, with samlify doing
 * the cryptography and the schema check (xmllint): the assertion or the whole response must
 * carry the provider's signature, the issuer must be the provider, and the conditions must
 * hold now (60 s skew). On top, what samlify leaves to the service provider: the audience
 * names Credo, the response and its subject confirmation are addressed to this provider's
 * assertion consumer service, and both answer the request this browser started. Every value
 * about the person is read from the signed assertion only.
 */
export async function verifyLoginResponse(input: {
  sp: ServiceProviderInstance;
  idpMetadata: string;
  /** The attributes named in the provider's settings, tried before the usual names. */
  emailAttribute: string;
  nameAttribute: string;
  entityId: string;
  assertionConsumerService: string;
  samlResponse: string;
  requestId: string;
  now: Date;
}): Promise<SamlIdentity> {
  const original = decode(input.samlResponse);
  const assertionEncrypted = hasElement(original, ["Response", "EncryptedAssertion"]);
  const idp = identityProvider(input.idpMetadata, { assertionEncrypted });

  let result: Awaited<ReturnType<ServiceProviderInstance["parseLoginResponse"]>>;
  try {
    result = await input.sp.parseLoginResponse(idp, "post", {
      body: { SAMLResponse: input.samlResponse },
    });
  } catch (error) {
    throw libraryRefusal(error);
  }
  const assertion = await signedAssertion(input.sp, idp, original, assertionEncrypted);
  if (!assertion) throw new SamlResponseInvalid("no signed assertion");

  const extract = result.extract;
  const own = samlify.Extractor.extract(assertion, SUBJECT_CONFIRMATION_FIELDS(assertion));
  const confirmation = record(own.confirmation);
  const response = record(extract.response);
  const conditions = record(extract.conditions);
  const now = input.now.getTime();

  if (![extract.audience].flat().includes(input.entityId)) {
    throw new SamlResponseInvalid("audience is not Credo");
  }
  if (
    response.destination !== undefined &&
    response.destination !== input.assertionConsumerService
  ) {
    throw new SamlResponseInvalid("destination is not this provider's address");
  }
  if (confirmation.recipient !== input.assertionConsumerService) {
    throw new SamlResponseInvalid("recipient is not this provider's address");
  }
  if (confirmation.inResponseTo !== input.requestId || response.inResponseTo !== input.requestId) {
    throw new SamlResponseInvalid("answers another request (InResponseTo)");
  }
  const confirmationEnds = time(confirmation.notOnOrAfter);
  if (confirmationEnds === null || now >= confirmationEnds + CLOCK_SKEW_MS) {
    throw new SamlResponseInvalid("outside its validity period (NotBefore/NotOnOrAfter)");
  }
  const subject = typeof extract.nameID === "string" ? extract.nameID.trim() : "";
  const assertionId = typeof own.assertion === "string" ? own.assertion : "";
  if (!subject) throw new SamlResponseInvalid("no subject (NameID)");
  if (!assertionId) throw new SamlResponseInvalid("no assertion id");
  if (!theOnlyAssertion(original, assertionEncrypted, assertionId)) {
    throw new SamlResponseInvalid("signature wrapping refused");
  }

  // An attribute with several values comes as a list; the first email among them counts.
  const attributes: Record<string, unknown> = extract.attributes ?? {};
  const sessionIndex = record(extract.sessionIndex).sessionIndex;
  const ends = Math.max(confirmationEnds, time(conditions.notOnOrAfter) ?? 0);
  return {
    subject,
    email: firstEmail(
      [input.emailAttribute, ...EMAIL_ATTRIBUTES].map((name) => attributes[name]).concat(subject),
    ),
    name: firstText([input.nameAttribute, ...NAME_ATTRIBUTES].map((name) => attributes[name])),
    ...(sessionIndex ? { sessionIndex } : {}),
    assertionId,
    assertionExpiresAt: new Date(ends + CLOCK_SKEW_MS),
  };
}

/**
 * The assertion the provider's signature covers, found the way samlify found it: signed
 * itself, or inside a signed response; an encrypted one is decrypted first when the
 * signature is inside it, or after the response's signature was checked when it is outside.
 */
async function signedAssertion(
  sp: ServiceProviderInstance,
  idp: IdentityProviderInstance,
  original: string,
  encrypted: boolean,
): Promise<string | null> {
  const options = {
    metadata: idp.entityMeta,
    signatureAlgorithm: idp.entitySetting.requestSignatureAlgorithm,
  };
  const verified = (xml: string) => {
    const [valid, signed] = samlify.SamlLib.verifySignature(xml, options);
    return valid ? signed : null;
  };
  const assertionIn = (signed: string | null) =>
    signed && hasElement(signed, ["Assertion"]) ? signed : null;
  if (!encrypted) return assertionIn(verified(original));
  const signedResponse = verified(original);
  if (signedResponse && hasElement(signedResponse, ["Response", "EncryptedAssertion"])) {
    return (await samlify.SamlLib.decryptAssertion(sp, signedResponse))[1];
  }
  const [decrypted] = await samlify.SamlLib.decryptAssertion(sp, original);
  return assertionIn(verified(decrypted));
}

/**
 * Whether the signed assertion is the response's one assertion. Another one beside it could
 * only be there for a careless reader to take instead (signature wrapping).
 */
function theOnlyAssertion(original: string, encrypted: boolean, signedId: string): boolean {
  const top = samlify.Extractor.extract(original, [
    { key: "plain", localPath: ["Response", "Assertion"], attributes: [], context: true },
    {
      key: "encrypted",
      localPath: ["Response", "EncryptedAssertion"],
      attributes: [],
      context: true,
    },
    { key: "id", localPath: ["Response", "Assertion"], attributes: ["ID"] },
  ]);
  if (encrypted) return top.plain === null && typeof top.encrypted === "string";
  return typeof top.plain === "string" && top.encrypted === null && top.id === signedId;
}

function decode(samlResponse: string): string {
  const xml = Buffer.from(samlResponse, "base64").toString("utf8");
  if (!xml.trimStart().startsWith("<")) throw new SamlResponseInvalid("not a SAML response");
  return xml;
}

function hasElement(xml: string, localPath: string[]): boolean {
  try {
    const found = samlify.Extractor.extract(xml, [
      { key: "element", localPath, attributes: [], context: true },
    ]);
    return found.element !== null && found.element !== undefined;
  } catch {
    return false;
  }
}

function record(value: unknown): Record<string, string | undefined> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, typeof item === "string" ? item : undefined]),
  );
}

function time(value: string | undefined): number | null {
  const parsed = value === undefined ? Number.NaN : Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

function firstText(values: unknown[]): string | undefined {
  for (const value of values.flat()) {
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return undefined;
}

function firstEmail(values: unknown[]): string | undefined {
  for (const value of values.flat()) {
    if (typeof value === "string" && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())) {
      return value.trim().toLowerCase();
    }
  }
  return undefined;
}
