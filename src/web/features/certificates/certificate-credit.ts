import { type CertificateCredit, claimedFields, type Licence } from "@contract";

/** What a credit-ready certificate prints of the claim, as text, in the order printed. */
export type CreditClaimFacts = {
  /** "1.5 CPE credits claimed (2 designated)", or the designated credit when claimed whole. */
  credits: string | null;
  /** "Auditing: 1 · Taxation: 0.5", scaled to the claim. */
  fields: string | null;
  sponsor: string | null;
  sponsorAddress: string | null;
  deliveryMethod: string | null;
  registryNumber: string | null;
  licence: string | null;
  attestedAt: string | null;
  accreditationStatement: string | null;
  officialName: string | null;
  officialTitle: string | null;
  signatureId: string | null;
};

const creditUnit = (n: number) => (n === 1 ? "credit" : "credits");

/** "CPA 12345 (California) · NPN 8812345": what identifies the learner to their licensing body. */
function licenceText(l: Licence | null): string | null {
  if (!l) return null;
  const parts: string[] = [];
  const licence = [l.licenceType, l.licenceNumber].filter(Boolean).join(" ");
  if (licence) parts.push(l.licenceState ? `${licence} (${l.licenceState})` : licence);
  if (l.npn) parts.push(`NPN ${l.npn}`);
  return parts.length ? parts.join(" · ") : null;
}

/** The claim's facts from an issued certificate, or null for a certificate without credit settings. */
export function creditClaimFacts(c: {
  credit: CertificateCredit | null;
  creditHours: number | null;
  creditType: string | null;
}): CreditClaimFacts | null {
  const credit = c.credit;
  if (!credit) return null;
  const claimed = credit.creditsClaimed ?? c.creditHours;
  const type = c.creditType ? `${c.creditType} ` : "";
  let credits: string | null = null;
  if (claimed !== null) {
    credits = `${claimed} ${type}${creditUnit(claimed)}`;
    if (c.creditHours !== null && claimed !== c.creditHours) {
      credits += ` claimed (${c.creditHours} designated)`;
    }
  }
  const fields = claimedFields(credit.fieldsOfStudy, c.creditHours, claimed)
    .map((f) => `${f.field}: ${f.credits}`)
    .join(" · ");
  const text = (value: string) => value.trim() || null;
  return {
    credits,
    fields: fields || null,
    sponsor: text(credit.sponsorName),
    // Printed on one line; an address typed on several lines keeps its parts.
    sponsorAddress: text(credit.sponsorAddress.split(/\s*\n\s*/).join(", ")),
    deliveryMethod: text(credit.deliveryMethod),
    registryNumber: text(credit.registryNumber),
    licence: licenceText(credit.licence),
    attestedAt: credit.attestedAt,
    accreditationStatement: text(credit.accreditationStatement),
    officialName: text(credit.officialName),
    officialTitle: text(credit.officialTitle),
    signatureId: credit.signatureId,
  };
}

/** Where the responsible official's signature image is served. */
export const signaturePath = (signatureId: string) =>
  `/api/signatures/${encodeURIComponent(signatureId)}`;
