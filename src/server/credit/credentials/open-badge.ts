import { createHash } from "node:crypto";
import {
  type Certificate,
  COMPLETION_STEP_LABELS,
  type CompletionStepKey,
  certifiesCredit,
  creditAmountText,
  creditSubject,
  hoursText,
  withCreditText,
} from "../../../contract";
import { OB_V3_CONTEXT, VC_V2_CONTEXT } from "../../../contract/linked-data";
import type { CertificateAchievement } from "../certificates/certificates.read-model";

/** The certificate as the credential is written from it: its snapshot at issue. */
export interface OpenBadgeSource {
  certificate: Certificate;
  achievement: CertificateAchievement | null;
}

/** Where the credential's revocation bit is. */
export interface StatusEntry {
  listUrl: string;
  index: number;
}

/**
 * A stable `urn:uuid:` for a name (SHA-256, laid out as an RFC 9562 version-8 UUID): the
 * course's achievement keeps one id across every learner's credential.
 */
function uuidUrnOf(name: string): string {
  const bytes = createHash("sha256").update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * What a completion step asks of a learner, as the achievement's criteria say it, where its
 * label alone would not (a step not listed reads "Completed the <label>.").
 */
const STEP_CRITERIA: Partial<Record<CompletionStepKey, (c: Certificate) => string>> = {
  acknowledge: () => `Read and acknowledged ${COMPLETION_STEP_LABELS.acknowledge}.`,
  modules: (c) =>
    certifiesCredit(c)
      ? "Completed every module of the course."
      : `Completed every module of the course (${hoursText(c.durationHours)} of study).`,
  review: () => "Answered the review questions of each module.",
  exam: () => "Passed the final exam.",
  evaluation: () => "Submitted the course evaluation.",
  attestation: () => "Attested to completing the activity and claimed the credit earned.",
  certificate: () => "Received the certificate.",
};

/**
 * What the achievement is: a course without credit by its length and category, as the spec's
 * certificate says it; a credit course by the credit earned and what it is in, never by the
 * whole-hour length or a category that is not its profession.
 */
/** The achievement's field of study: a credit course's real one, else the spec's category. */
function fieldOfStudyOf(c: Certificate): { fieldOfStudy?: string } {
  if (!certifiesCredit(c)) return { fieldOfStudy: c.courseCategory };
  const subject = creditSubject(c);
  return subject ? { fieldOfStudy: subject.value } : {};
}

function achievementDescription(c: Certificate): string {
  if (!certifiesCredit(c))
    return `A course of ${hoursText(c.durationHours)} in ${c.courseCategory}.`;
  const credit = c.credits.map((credit) => withCreditText(credit).text).join(" · ");
  const subject = creditSubject(c)?.value;
  return `A continuing-education course${credit ? ` earning ${credit}` : ""}${subject ? ` in ${subject}` : ""}.`;
}

/**
 * The steps the course required at issue; a certificate issued before they were recorded
 * says what its snapshot shows (the modules, a passed exam, an attestation).
 */
function stepsOf({ certificate: c, achievement }: OpenBadgeSource): CompletionStepKey[] {
  if (achievement) return achievement.steps;
  const steps: CompletionStepKey[] = ["modules"];
  if (c.examScore !== null) steps.push("exam");
  if (c.credit?.attestedAt) steps.push("attestation");
  return steps;
}

function criteriaOf(source: OpenBadgeSource): string {
  const c = source.certificate;
  const lines = stepsOf(source).map(
    (key) =>
      `- ${STEP_CRITERIA[key]?.(c) ?? `Completed the ${COMPLETION_STEP_LABELS[key].toLowerCase()}.`}`,
  );
  const credit = c.credits.map((credit) => {
    const offered = source.achievement?.creditsOffered.find((o) => o.name === credit.name);
    const body = [
      credit.accreditingBody,
      credit.providerNumber ? `provider no. ${credit.providerNumber}` : null,
    ]
      .filter(Boolean)
      .join(", ");
    const amount = offered
      ? `Up to ${creditAmountText(offered.amount, offered.name)}`
      : credit.name;
    return `- ${amount}${body ? ` (${body})` : ""}`;
  });
  return [
    "To earn this certificate, the learner:",
    "",
    ...lines,
    ...(credit.length ? ["", "The course awards:", "", ...credit] : []),
  ].join("\n");
}

/** "CPA 12345" or an NPN: the number the learner's licensing body knows them by. */
function licenceNumberOf(c: Certificate): string | null {
  const licence = c.credit?.licence;
  if (!licence) return null;
  if (licence.licenceNumber.trim()) return licence.licenceNumber.trim();
  return licence.npn.trim() ? `NPN ${licence.npn.trim()}` : null;
}

/**
 * The certificate as an Open Badges 3.0 `OpenBadgeCredential` (VC Data Model 2.0), unsigned:
 * the organisation as issuer, the learner as the recipient, the course as the achievement
 * (criteria from its completion steps, its credit types, field of study and image), the
 * credit claimed, the licence number, the exam result and the revocation entry. The
 * verification address is the credential's id.
 */
export function openBadgeCredential(
  source: OpenBadgeSource,
  options: {
    issuerDid: string;
    publicUrl: string;
    status: StatusEntry;
    /** The course's image, when anyone may see it (a published course's thumbnail). */
    courseImageUrl: string | null;
  },
): Record<string, unknown> {
  const c = source.certificate;
  const { issuerDid, publicUrl, status, courseImageUrl } = options;
  const achievementId = uuidUrnOf(`${issuerDid} course ${c.courseId ?? `certificate ${c.id}`}`);
  const logo = c.issuerLogoUrl
    ? { id: `${publicUrl}${c.issuerLogoUrl}`, type: "Image", caption: `${c.issuerName} logo` }
    : undefined;
  // A wallet shows the achievement's image to anyone: the course's own when it is public,
  // else the organisation's logo.
  const achievementImage = courseImageUrl
    ? { id: courseImageUrl, type: "Image", caption: c.courseTitle }
    : logo;

  // One result per credit type claimed, and the final exam's score: types are never added up.
  const descriptions: Record<string, unknown>[] = [];
  const results: Record<string, unknown>[] = [];
  for (const credit of c.credits) {
    const id = uuidUrnOf(`${achievementId} credit ${credit.name}`);
    const offered = source.achievement?.creditsOffered.find((o) => o.name === credit.name);
    descriptions.push({
      id,
      type: ["ResultDescription"],
      name: credit.name,
      resultType: "ext:CreditsEarned",
      valueMin: "0",
      ...(offered ? { valueMax: String(offered.amount) } : {}),
    });
    results.push({ type: ["Result"], resultDescription: id, value: String(credit.amount) });
  }
  if (c.examScore !== null) {
    const id = uuidUrnOf(`${achievementId} final exam`);
    descriptions.push({
      id,
      type: ["ResultDescription"],
      name: COMPLETION_STEP_LABELS.exam,
      resultType: "Percent",
      valueMin: "0",
      valueMax: "100",
    });
    results.push({ type: ["Result"], resultDescription: id, value: String(c.examScore) });
  }

  // creditsEarned and creditsAvailable are single numbers: set when one type is claimed.
  const single = c.credits.length === 1 ? c.credits[0] : undefined;
  const singleOffered = single
    ? source.achievement?.creditsOffered.find((o) => o.name === single.name)
    : undefined;
  const licenseNumber = licenceNumberOf(c);

  return {
    "@context": [VC_V2_CONTEXT, OB_V3_CONTEXT],
    id: c.verifyUrl,
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    name: c.courseTitle,
    issuer: {
      id: issuerDid,
      type: ["Profile"],
      name: c.issuerName,
      url: publicUrl,
      ...(logo ? { image: logo } : {}),
    },
    validFrom: c.issuedAt,
    credentialSubject: {
      type: ["AchievementSubject"],
      name: c.learnerName,
      identifier: [
        {
          type: "IdentityObject",
          identityType: "name",
          hashed: false,
          identityHash: c.learnerName,
        },
      ],
      activityEndDate: c.completedAt,
      ...(single ? { creditsEarned: single.amount } : {}),
      ...(licenseNumber ? { licenseNumber } : {}),
      ...(results.length ? { result: results } : {}),
      achievement: {
        id: achievementId,
        type: ["Achievement"],
        achievementType: "CertificateOfCompletion",
        name: c.courseTitle,
        description: achievementDescription(c),
        criteria: { narrative: criteriaOf(source) },
        ...(singleOffered ? { creditsAvailable: singleOffered.amount } : {}),
        ...fieldOfStudyOf(c),
        ...(achievementImage ? { image: achievementImage } : {}),
        ...(descriptions.length ? { resultDescription: descriptions } : {}),
      },
    },
    credentialStatus: {
      id: `${status.listUrl}#${status.index}`,
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListIndex: String(status.index),
      statusListCredential: status.listUrl,
    },
  };
}
