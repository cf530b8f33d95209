import { z } from "zod";
import { formatCertificateCode } from "./certificates";

/**
 * Every certificate is also an Open Badges 3.0 credential (a W3C Verifiable Credential),
 * signed by the portal: what the learner downloads, adds to LinkedIn, and what anyone checks
 * on the verification page (docs/credentials.md).
 */

/** The media type of a signed credential (VC Data Model 2.0, JSON-LD). */
export const CREDENTIAL_MEDIA_TYPE = "application/vc+ld+json";

/**
 * The credential's check, as the public verification page shows it: `valid` when its proof
 * verifies against the issuer's DID document and its status bit is clear, `revoked` when the
 * status list says so, `invalid` when the proof or the credential itself does not hold.
 */
export const credentialResultSchema = z.enum(["valid", "revoked", "invalid"]);
export type CredentialResult = z.infer<typeof credentialResultSchema>;

export const credentialCheckSchema = z.object({
  result: credentialResultSchema,
  /** The issuer's DID (did:web), whose document holds the keys. */
  issuer: z.string(),
  /** The key the credential was signed with. */
  verificationMethod: z.string().nullable(),
  /** The suite of its proof: always eddsa-rdfc-2022 for credentials this portal issues. */
  cryptosuite: z.string().nullable(),
  checkedAt: z.string(),
});
export type CredentialCheck = z.infer<typeof credentialCheckSchema>;

/**
 * A signed credential as the portal serves it: a JSON-LD object. What it holds is checked by
 * its proof (a verifier's libraries), not by a schema here.
 */
export const signedCredentialSchema = z.record(z.string(), z.unknown());

/** The name of a downloaded credential: "Credential-Clinical-Ethics.json". */
export function credentialFileName(courseTitle: string): string {
  return `Credential-${courseTitle.trim().replace(/\s+/g, "-")}.json`;
}

/**
 * Where a published course's image (its thumbnail) is served to anyone: the achievement's
 * image in the course's credentials, which a wallet shows without signing in.
 */
export const courseImagePath = (courseId: string) =>
  `/objects/course-images/${encodeURIComponent(courseId)}`;

/** Where the signed credential of a certificate is served (its learner and administrators). */
export const credentialPath = (code: string) =>
  `/api/certificates/${encodeURIComponent(code)}/credential`;

/**
 * LinkedIn's "Add licence or certification" form, filled in: the course as the
 * certification's name, the organisation, the month of issue, the verification address and
 * the certificate's code as the credential ID. The learner confirms it on LinkedIn.
 */
export function linkedInAddUrl(c: {
  courseTitle: string;
  issuerName: string;
  issuedAt: string;
  verifyUrl: string;
  code: string;
}): string {
  const issued = new Date(c.issuedAt);
  const params = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: c.courseTitle,
    organizationName: c.issuerName,
    issueYear: String(issued.getUTCFullYear()),
    issueMonth: String(issued.getUTCMonth() + 1),
    certUrl: c.verifyUrl,
    certId: formatCertificateCode(c.code),
  });
  return `https://www.linkedin.com/profile/add?${params}`;
}
