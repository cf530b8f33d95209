import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { IdentityProviderInstance, ServiceProviderInstance } from "samlify";
import samlify from "samlify";
import { generateSamlKeyPair } from "../people/sign-on/saml/saml-keys";
import { validateSamlSchema } from "../people/sign-on/saml/saml-schema";
import { freePort } from "./free-port";

// Outside the portal's process (the browser tests) the provider checks requests the same way.
samlify.setSchemaValidator({ validate: validateSamlSchema });

/** The person the test identity provider signs in. */
interface TestSamlUser {
  email: string;
  name?: string;
  /** The NameID; the email unless given. */
  nameId?: string;
}

/** How a minted response differs from a correct one. */
interface MintOptions {
  user: TestSamlUser;
  /** The request it answers; none makes an unsolicited response. */
  inResponseTo?: string;
  /** Credo's entity id for the provider; the last trusted one unless given. */
  serviceProvider?: string;
  audience?: string;
  /** Shifts every time in the response by this much (negative: long ago, so expired). */
  shiftMs?: number;
  /** How long the assertion is valid for; five minutes unless given. */
  validForMs?: number;
  assertionId?: string;
  /** Encrypts the signed assertion to Credo's certificate. */
  encrypt?: boolean;
  /** Signed by another key than the one the metadata publishes. */
  foreignKey?: boolean;
  /**
   * A second-tier status (e.g. AuthnFailed when the person cancelled): the response then says
   * the sign-in failed and carries no assertion, as providers answer then.
   */
  failed?: string;
}

const ATTRIBUTE_NAME_FORMAT = "urn:oasis:names:tc:SAML:2.0:attrname-format:basic";

/** The response with the person's email as an attribute and a session index, as real providers send. */
const RESPONSE_TEMPLATE =
  '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" InResponseTo="{InResponseTo}">' +
  "<saml:Issuer>{Issuer}</saml:Issuer>" +
  '<samlp:Status><samlp:StatusCode Value="{StatusCode}"/></samlp:Status>' +
  '<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="{AssertionID}" Version="2.0" IssueInstant="{IssueInstant}">' +
  "<saml:Issuer>{Issuer}</saml:Issuer>" +
  '<saml:Subject><saml:NameID Format="{NameIDFormat}">{NameID}</saml:NameID>' +
  '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="{NotOnOrAfter}" Recipient="{Recipient}" InResponseTo="{InResponseTo}"/></saml:SubjectConfirmation></saml:Subject>' +
  '<saml:Conditions NotBefore="{NotBefore}" NotOnOrAfter="{NotOnOrAfter}"><saml:AudienceRestriction><saml:Audience>{Audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>' +
  '<saml:AuthnStatement AuthnInstant="{IssueInstant}" SessionIndex="{SessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>' +
  `<saml:AttributeStatement><saml:Attribute Name="email" NameFormat="${ATTRIBUTE_NAME_FORMAT}"><saml:AttributeValue xsi:type="xs:string">{Email}</saml:AttributeValue></saml:Attribute>` +
  `<saml:Attribute Name="displayName" NameFormat="${ATTRIBUTE_NAME_FORMAT}"><saml:AttributeValue xsi:type="xs:string">{DisplayName}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
  "</saml:Assertion></samlp:Response>";

export interface TestSamlIdp {
  /** Where the provider answers, e.g. http://127.0.0.1:PORT. */
  url: string;
  metadataUrl: string;
  /** The provider's metadata, as an administrator pastes it into Credo. */
  metadata: string;
  /** Lets the provider answer a service provider, as an administrator registers Credo there. */
  trust(spMetadata: string): void;
  /** The person the sign-in page signs in from now on. */
  signInAs(user: TestSamlUser): void;
  /**
   * What the sign-in page does with a request: answers for the configured person, as the
   * auto-posting form's fields and the address it posts to.
   */
  answer(requestUrl: string): Promise<{ action: string; SAMLResponse: string; RelayState: string }>;
  /** A single logout request as the provider reads it, its signature checked. */
  logoutRequest(url: string): Promise<{ issuer: string; nameId: string; sessionIndex: string }>;
  /** A response as the provider would post it, base64, changed as the options say. */
  mint(options: MintOptions): Promise<string>;
  close(): Promise<void>;
}

/**
 * A SAML identity provider built with samlify's IdentityProvider, on an HTTP server of its
 * own: `/metadata` serves its metadata, `/sso` takes Credo's redirect and at once answers with
 * a page that posts the signed response to Credo for the configured person (no login form),
 * `/slo` takes single logout and shows that the person was signed out.
 */
export async function startTestSamlIdp(): Promise<TestSamlIdp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const keys = generateSamlKeyPair("Credo test identity provider");
  const foreign = generateSamlKeyPair("Someone else");
  const settings = {
    entityID: `${url}/metadata`,
    privateKey: keys.privateKey,
    signingCert: keys.certificate,
    nameIDFormat: [samlify.Constants.namespace.format.emailAddress],
    singleSignOnService: [
      { Binding: samlify.Constants.namespace.binding.redirect, Location: `${url}/sso` },
    ],
    singleLogoutService: [
      { Binding: samlify.Constants.namespace.binding.redirect, Location: `${url}/slo` },
    ],
    wantAuthnRequestsSigned: false,
    wantLogoutRequestSigned: true,
    requestSignatureAlgorithm: samlify.Constants.algorithms.signature.RSA_SHA256,
  };
  const idp = samlify.IdentityProvider(settings);
  const entity = (options: { encrypt?: boolean; foreignKey?: boolean }): IdentityProviderInstance =>
    samlify.IdentityProvider({
      ...settings,
      ...(options.foreignKey ? { privateKey: foreign.privateKey } : {}),
      isAssertionEncrypted: options.encrypt ?? false,
      loginResponseTemplate: { context: RESPONSE_TEMPLATE, attributes: [] },
    });
  const trusted = new Map<string, ServiceProviderInstance>();
  let lastTrusted: string | undefined;
  let user: TestSamlUser = { email: "learner@example.edu" };

  const serviceProvider = (entityId: string | undefined) => {
    const sp = entityId ? trusted.get(entityId) : undefined;
    if (!sp) throw new Error(`The test identity provider does not know ${entityId}`);
    return sp;
  };

  const mint = async (options: MintOptions): Promise<string> => {
    const sp = serviceProvider(options.serviceProvider ?? lastTrusted);
    const now = Date.now() + (options.shiftMs ?? 0);
    const acs = String(sp.entityMeta.getAssertionConsumerService("post"));
    const values = {
      ID: `_${randomUUID()}`,
      AssertionID: options.assertionId ?? `_${randomUUID()}`,
      IssueInstant: new Date(now).toISOString(),
      Destination: acs,
      Recipient: acs,
      InResponseTo: options.inResponseTo,
      Issuer: settings.entityID,
      StatusCode: samlify.Constants.StatusCode.Success,
      NameIDFormat: samlify.Constants.namespace.format.emailAddress,
      NameID: options.user.nameId ?? options.user.email,
      NotBefore: new Date(now).toISOString(),
      NotOnOrAfter: new Date(now + (options.validForMs ?? 5 * 60_000)).toISOString(),
      Audience: options.audience ?? sp.entityMeta.getEntityID(),
      SessionIndex: `_session-${randomUUID()}`,
      Email: options.user.email,
      DisplayName: options.user.name ?? options.user.email,
    };
    if (options.failed) return failedResponse(values, options.failed);
    const response = await entity(options).createLoginResponse(
      sp,
      { extract: {} },
      "post",
      {},
      (template) => ({
        id: values.ID,
        context: samlify.SamlLib.replaceTagsByValue(template, values),
      }),
    );
    return response.context;
  };

  const answer = async (requestUrl: string) => {
    const query = Object.fromEntries(new URL(requestUrl, url).searchParams);
    const request = samlify.Utility.inflateString(String(query.SAMLRequest));
    const fields = samlify.Extractor.extract(request, [
      { key: "issuer", localPath: ["AuthnRequest", "Issuer"], attributes: [] },
    ]);
    const issuer = String(fields.issuer);
    if (!trusted.has(issuer)) await trustFrom(issuer);
    const sp = serviceProvider(issuer);
    const parsed = await idp.parseLoginRequest(sp, "redirect", { query });
    const requestId = String((parsed.extract.request as Record<string, string>).id);
    return {
      action: String(sp.entityMeta.getAssertionConsumerService("post")),
      SAMLResponse: await mint({ user, inResponseTo: requestId, serviceProvider: issuer }),
      RelayState: query.RelayState ?? "",
    };
  };

  const logoutRequest = async (requestUrl: string) => {
    const address = new URL(requestUrl);
    const query = Object.fromEntries(address.searchParams);
    const request = samlify.Utility.inflateString(String(query.SAMLRequest));
    const { issuer } = samlify.Extractor.extract(request, [
      { key: "issuer", localPath: ["LogoutRequest", "Issuer"], attributes: [] },
    ]);
    const sp = serviceProvider(String(issuer));
    // The signature covers the query as sent: its encoded parameters, in order.
    const octetString = address.search
      .slice(1)
      .split("&")
      .filter((pair) => !pair.startsWith("Signature="))
      .join("&");
    const parsed = await idp.parseLogoutRequest(sp, "redirect", { query, octetString });
    return {
      issuer: String(parsed.extract.issuer),
      nameId: String(parsed.extract.nameID),
      sessionIndex: String(parsed.extract.sessionIndex),
    };
  };

  const trust = (spMetadata: string) => {
    const sp = samlify.ServiceProvider({ metadata: spMetadata });
    lastTrusted = sp.entityMeta.getEntityID();
    trusted.set(lastTrusted, sp);
  };
  // Credo's entity id is its metadata's address, so a browser journey needs no set-up step.
  const trustFrom = async (entityId: string) => {
    const response = await fetch(entityId);
    if (response.ok) trust(await response.text());
  };

  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", url).pathname;
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { "content-type": type });
      response.end(body);
    };
    if (path === "/metadata") return send(200, "application/samlmetadata+xml", idp.getMetadata());
    if (path === "/slo")
      return send(200, "text/html", "<!doctype html><title>Signed out</title><h1>Signed out</h1>");
    if (path !== "/sso") return send(404, "text/plain", "Not found");
    answer(request.url ?? "").then(
      (form) => send(200, "text/html; charset=utf-8", autoPostingForm(form)),
      (error: unknown) => send(400, "text/plain", String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  return {
    url,
    metadataUrl: `${url}/metadata`,
    metadata: idp.getMetadata(),
    trust,
    signInAs: (next) => {
      user = next;
    },
    answer,
    logoutRequest,
    mint,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A response saying the sign-in failed at the provider, with the second-tier status given. */
function failedResponse(
  values: { ID: string; IssueInstant: string; Destination: string; Issuer: string } & {
    InResponseTo?: string;
  },
  status: string,
): string {
  const xml =
    '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ' +
    `xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${values.ID}" Version="2.0" ` +
    `IssueInstant="${values.IssueInstant}" Destination="${values.Destination}"` +
    `${values.InResponseTo ? ` InResponseTo="${values.InResponseTo}"` : ""}>` +
    `<saml:Issuer>${values.Issuer}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">' +
    `<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:${status}"/>` +
    "</samlp:StatusCode></samlp:Status></samlp:Response>";
  return Buffer.from(xml).toString("base64");
}

/** The response with every mention of one email changed to another after it was signed. */
export function tamperedResponse(samlResponse: string, from: string, to: string): string {
  const xml = Buffer.from(samlResponse, "base64").toString("utf8");
  return Buffer.from(xml.split(from).join(to)).toString("base64");
}

/**
 * A signature-wrapping attack: the signed assertion moves into the response's Extensions,
 * where it still verifies, and a forged copy naming someone else takes its place, carrying
 * the original's signature (whose reference still points at the moved original).
 */
export function wrappedResponse(samlResponse: string, from: string, to: string): string {
  const xml = Buffer.from(samlResponse, "base64").toString("utf8");
  const start = xml.indexOf("<saml:Assertion");
  const end = xml.indexOf("</saml:Assertion>") + "</saml:Assertion>".length;
  const signed = xml.slice(start, end);
  const forged = signed
    .split(from)
    .join(to)
    .replace(/ ID="([^"]+)"/, ' ID="$1-forged"');
  const statusAt = xml.indexOf("<samlp:Status>");
  return Buffer.from(
    `${xml.slice(0, statusAt)}<samlp:Extensions>${signed}</samlp:Extensions>${xml.slice(statusAt, start)}${forged}${xml.slice(end)}`,
  ).toString("base64");
}

function autoPostingForm(form: {
  action: string;
  SAMLResponse: string;
  RelayState: string;
}): string {
  const attribute = (value: string) =>
    value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!doctype html><html><head><title>Signing in</title></head><body>
<form method="post" action="${attribute(form.action)}">
<input type="hidden" name="SAMLResponse" value="${attribute(form.SAMLResponse)}">
<input type="hidden" name="RelayState" value="${attribute(form.RelayState)}">
<noscript><button>Continue</button></noscript>
</form>
<script>document.forms[0].submit()</script>
</body></html>`;
}
