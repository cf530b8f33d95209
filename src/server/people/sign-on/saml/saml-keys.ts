import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

/** Identity providers pin this certificate, so it outlives any realistic provider setup. */
const CERTIFICATE_YEARS = 10;

export interface SamlKeyPair {
  /** PEM certificate, published in the metadata for the provider to verify and encrypt with. */
  certificate: string;
  /** PEM private key: signs requests and decrypts encrypted assertions. */
  privateKey: string;
}

/**
 * A fresh RSA key pair with a self-signed certificate for one provider. SAML trusts the
 * certificate as exchanged in metadata, so no certificate authority is involved. Node makes
 * the key (fast, native); node-forge only writes the certificate, which Node cannot.
 */
export function generateSamlKeyPair(commonName: string, now = new Date()): SamlKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey);
  // A positive serial number: the leading byte's high bit stays clear.
  certificate.serialNumber = `7${randomBytes(15).toString("hex")}`;
  certificate.validity.notBefore = now;
  certificate.validity.notAfter = new Date(now);
  certificate.validity.notAfter.setUTCFullYear(now.getUTCFullYear() + CERTIFICATE_YEARS);
  const subject = [{ name: "commonName", value: commonName.slice(0, 64) }];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([{ name: "basicConstraints", cA: false }]);
  certificate.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return { certificate: forge.pki.certificateToPem(certificate), privateKey };
}
