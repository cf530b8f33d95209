import { type CertificateCredit, hasLicence } from "../../../contract";
import { type ActivitySettings, loadActivity } from "../activity/activity.read-model";
import { attestationOf } from "../attestations/attestations.read-model";
import { defineStep } from "../enrollments/completion-steps";
import { creditSettingsOf, licenceOf } from "./credit.read-model";
import { createCreditRepository } from "./credit.repository";

/**
 * The credit-ready certificate's last word: a course that asks for the learner's licence
 * issues no certificate until it is entered, and the certificate prints the credit claim
 * (credit settings, the attestation, the licence) as it stands at completion.
 */
export const creditCertificateStep = defineStep<ActivitySettings>({
  key: "certificate",
  load: loadActivity,
  async canIssue(tx, enrollment, activity) {
    if (!activity?.licenceRequired) return true;
    const licence = await createCreditRepository(tx).licenceOf(enrollment.userId);
    return Boolean(licence && hasLicence(licence));
  },
  async creditFacts(tx, enrollment, activity) {
    if (!activity) return { credit: null };
    const attestation = await attestationOf(tx, enrollment.id);
    const settings = creditSettingsOf(activity);
    const credit: CertificateCredit = {
      creditsClaimed: attestation?.creditsClaimed ?? null,
      fieldsOfStudy: settings.fieldsOfStudy,
      sponsorName: settings.sponsorName,
      sponsorAddress: settings.sponsorAddress,
      deliveryMethod: settings.deliveryMethod,
      accreditationStatement: activity.accreditationStatement,
      registryNumber: settings.registryNumber,
      officialName: settings.officialName,
      officialTitle: settings.officialTitle,
      signatureId: settings.signatureId,
      licence: licenceOf(await createCreditRepository(tx).licenceOf(enrollment.userId)),
      attestedAt: attestation?.attestedAt.toISOString() ?? null,
    };
    return { credit };
  },
});
