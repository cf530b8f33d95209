import { describe, expect, it } from "vitest";
import { validateSamlSchema } from "./saml-schema";

const RESPONSE =
  '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_a" Version="2.0" IssueInstant="2030-01-01T00:00:00Z"><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:Response>';

describe("the SAML schema check", () => {
  it("accepts a schema-valid response and refuses one that is not", async () => {
    await expect(validateSamlSchema(RESPONSE)).resolves.toBeDefined();
    await expect(validateSamlSchema(RESPONSE.replace(' ID="_a"', ""))).rejects.toBeDefined();
  });

  it("leaves no listener behind that would keep xmllint's heap alive or exit the server", async () => {
    const counts = () => [
      process.listenerCount("uncaughtException"),
      process.stdout.listenerCount("drain"),
      process.stderr.listenerCount("drain"),
    ];
    const before = counts();
    for (let i = 0; i < 3; i++) await validateSamlSchema(RESPONSE);
    expect(counts()).toEqual(before);
  });
});
