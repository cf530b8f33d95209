import { fileTypeFromBuffer } from "file-type";
import {
  type CertificateCredit,
  type CoursePublishCheck,
  type CreditSettingsBody,
  type CreditType,
  certificateLicenceOf,
  claimedFields,
  creditAmountText,
  type FieldOfStudy,
  hasLicenceOnFile,
  PUBLISH_MESSAGES,
  SIGNATURE_MAX_BYTES,
  type StoredClaimedCredit,
} from "../../../contract";
import { creditTypesOfCourse } from "../../catalogue";
import type { Database, Executor } from "../../db/client";
import type { EnrollmentRow } from "../../learning";
import { defineStep, type SharedLoad } from "../../learning";
import type { Events } from "../../lib/events";
import { withinImageBounds } from "../../lib/image-bounds";
import { loadActivity } from "../activity/activity.read-model";
import type { ActivityService, Viewer } from "../activity/activity.service";
import {
  type AttestationSettings,
  attestationOf,
  loadAttestationSettings,
} from "../attestations/attestations.read-model";
import { loadEvaluationSettings } from "../evaluations/evaluations.read-model";
import { identifiersOf } from "../identifiers/identifiers.read-model";
import { fieldsOfStudyMismatch, notAnImage, signatureNotFound } from "./credit.errors";
import { creditSettingsOf, loadCreditSettings } from "./credit.read-model";
import { createCreditRepository } from "./credit.repository";
import type { CourseCreditSettingsRow } from "./credit.table";

/**
 * What the certificate step decides by: whether the course asks for the attestation, its
 * credit settings and the credit types it offers.
 */
export interface CreditOffer {
  /** Whether the course has any credit settings at all: a plain course's certificate has none. */
  accredited: boolean;
  attestation: AttestationSettings;
  settings: CourseCreditSettingsRow | undefined;
  types: CreditType[];
}

/**
 * The credit step's settings, with the activity's, the evaluation's and the attestation's,
 * which their own steps load for the same course (`shared` reads each once).
 */
const loadCreditOffer = async (
  db: Executor,
  courseId: string,
  shared: SharedLoad,
): Promise<CreditOffer> => {
  const [activity, evaluation, attestation, settings, types] = await Promise.all([
    shared(loadActivity),
    shared(loadEvaluationSettings),
    shared(loadAttestationSettings),
    loadCreditSettings(db, courseId),
    creditTypesOfCourse(db, courseId),
  ]);
  const accredited = Boolean(activity || evaluation || attestation || settings);
  return { accredited, attestation, settings, types };
};

/**
 * The credit awarded: what the learner claimed in the attestation, or, for a course that asks
 * for no attestation, every type it offers at its whole amount.
 */
async function awarded(tx: Executor, enrollment: EnrollmentRow, offer: CreditOffer) {
  const attestation = offer.attestation?.attestationRequired
    ? await attestationOf(tx, enrollment.id)
    : undefined;
  if (attestation) return { attestation, claims: attestation.credits };
  const claims = offer.types.map((t) => ({
    creditTypeId: t.id,
    catalogueTypeId: t.catalogueTypeId,
    name: t.name,
    singularName: t.singularName,
    amount: t.amount,
    maxAmount: t.amount,
    accreditingBody: t.accreditingBody,
    providerNumber: t.providerNumber,
  }));
  return { attestation, claims };
}

/**
 * Fields of study (a NASBA listing) count the credit of one type: the claimed type whose
 * whole amount they add up to. A partial claim of it scales them; a claim of only another
 * type prints none of them; when they add up to no type they print as designated.
 */
function fieldsAsClaimed(
  fields: FieldOfStudy[],
  claims: { amount: number; maxAmount: number }[],
  /** The designated amount of each type the course offers. */
  offered: number[],
): FieldOfStudy[] {
  const total = Math.round(fields.reduce((sum, f) => sum + f.credits, 0) * 100);
  const counts = (amount: number) => Math.round(amount * 100) === total;
  const counted = claims.find((c) => counts(c.maxAmount));
  // The fields share a type the learner did not claim: none of them is the learner's credit.
  if (!counted) return offered.some(counts) ? [] : fields;
  return claimedFields(fields, counted.maxAmount, counted.amount);
}

/**
 * The credit-ready certificate's last word: a certificate awarding a type that asks for the
 * learner's licence waits until it is entered, and the certificate prints the credit
 * awarded of each type and the claim (credit settings, the attestation, the licence) as
 * they stand at completion.
 */
export const creditCertificateStep = defineStep<CreditOffer>({
  key: "certificate",
  load: loadCreditOffer,
  async canIssue(tx, enrollment, offer) {
    if (!offer.types.some((t) => t.licenceRequired)) return true;
    const { claims } = await awarded(tx, enrollment, offer);
    const needs = claims.some(
      (c) => offer.types.find((t) => t.id === c.creditTypeId)?.licenceRequired,
    );
    if (!needs) return true;
    // The learner's one record: a licence given in the attestation or the profile counts.
    return hasLicenceOnFile(await identifiersOf(tx, enrollment.userId));
  },
  async creditFacts(tx, enrollment, offer) {
    const { attestation, claims } = await awarded(tx, enrollment, offer);
    const credits: StoredClaimedCredit[] = claims.map((c) => {
      const type = offer.types.find((t) => t.id === c.creditTypeId);
      return {
        creditTypeId: c.creditTypeId,
        catalogueTypeId: c.catalogueTypeId,
        name: c.name,
        singularName: c.singularName,
        profession: type?.profession || null,
        amount: c.amount,
        accreditingBody: c.accreditingBody,
        providerNumber: c.providerNumber,
        accreditationStatement: type?.accreditationStatement ?? "",
        designationStatement: type?.designationStatement ?? "",
      };
    });
    const creditsOffered = claims.map((c) => ({ name: c.name, amount: c.maxAmount }));
    if (!offer.accredited) return { credit: null, credits, creditsOffered };
    const settings = creditSettingsOf(offer.settings);
    const credit: CertificateCredit = {
      creditsClaimed: credits.length === 1 ? credits[0]!.amount : null,
      fieldsOfStudy: fieldsAsClaimed(
        settings.fieldsOfStudy,
        claims,
        offer.types.map((t) => t.amount),
      ),
      sponsorName: settings.sponsorName,
      sponsorAddress: settings.sponsorAddress,
      deliveryMethod: settings.deliveryMethod,
      accreditationStatement: credits
        .map((c) => c.accreditationStatement)
        .filter(Boolean)
        .join("\n\n"),
      registryNumber: "",
      officialName: settings.officialName,
      officialTitle: settings.officialTitle,
      signatureId: settings.signatureId,
      licence: certificateLicenceOf(await identifiersOf(tx, enrollment.userId)),
      attestedAt: attestation?.attestedAt.toISOString() ?? null,
    };
    return { credit, credits, creditsOffered };
  },
});

/** Each offered type that needs fields of study whose amount they do not add up to. */
function fieldsOfStudyShortfalls(types: CreditType[], fields: FieldOfStudy[]) {
  const total = Math.round(fields.reduce((sum, f) => sum + f.credits, 0) * 100);
  return types
    .filter((t) => t.fieldsOfStudyRequired && Math.round(t.amount * 100) !== total)
    .map((t) => ({
      credit: creditAmountText(t.amount, t.name, t.singularName),
      fields: total ? creditAmountText(total / 100, t.name, t.singularName) : "nothing",
    }));
}

/**
 * A type that needs fields of study (NASBA's CPE) is published only when the course's fields
 * add up to its amount: a certificate printing "2 CPE credits" beside "Accounting: 1.5" is
 * rejected by the body's reviewers.
 */
function fieldsOfStudyChecks(types: CreditType[], fields: FieldOfStudy[]): CoursePublishCheck[] {
  return fieldsOfStudyShortfalls(types, fields).map((s) => ({
    key: "fields-of-study",
    severity: "block",
    message: PUBLISH_MESSAGES.fieldsOfStudy(s.credit, s.fields),
    moduleId: null,
  }));
}

export interface CreditServiceDeps {
  db: Database;
  /** The activity feature: the course (404 when unknown), and the one edit of settings. */
  activity: Pick<ActivityService, "course" | "edit">;
  /** Publishing asks whether the fields of study add up to the credit that needs them. */
  events: Pick<Events, "subscribe">;
}

const SIGNATURE_TYPES = new Set(["image/png", "image/jpeg"]);

/**
 * What a credit-ready certificate prints beyond the steps: the course's credit settings and
 * responsible official's signature.
 */
export function createCreditService(deps: CreditServiceDeps) {
  const { activity } = deps;
  const repo = createCreditRepository(deps.db);

  deps.events.subscribe("course.publish-review", {
    async inTransaction(tx, { courseId, creditTypes: types, checks }) {
      if (!types.some((t) => t.fieldsOfStudyRequired)) return;
      const { fieldsOfStudy } = creditSettingsOf(await loadCreditSettings(tx, courseId));
      checks.push(...fieldsOfStudyChecks(types, fieldsOfStudy));
    },
  });

  /** Saves the credit settings named as the edit `type`, and answers them as they stand. */
  async function save(
    courseId: string,
    values: Partial<Omit<CourseCreditSettingsRow, "courseId" | "updatedAt">>,
    edit: {
      actor: Viewer;
      type: "credit.settings_updated" | "credit.signature_updated" | "credit.signature_removed";
    },
  ) {
    const row = await activity.edit(courseId, edit, Object.keys(values), (tx) =>
      createCreditRepository(tx).editCreditSettings(courseId, values),
    );
    return creditSettingsOf(row);
  }

  return {
    /**
     * A published course's fields of study keep adding up to the credit that needs them:
     * its learners' certificates print them (a draft is held to it when it is published).
     */
    async saveCreditSettings(courseId: string, body: CreditSettingsBody, actor: Viewer) {
      const course = await activity.course(courseId);
      const [short] = course.isPublished
        ? fieldsOfStudyShortfalls(course.creditTypes, body.fieldsOfStudy)
        : [];
      if (short) {
        throw fieldsOfStudyMismatch(
          PUBLISH_MESSAGES.publishedFieldsOfStudy(short.credit, short.fields),
        );
      }
      return save(courseId, body, { actor, type: "credit.settings_updated" });
    },

    /**
     * Stores a PNG or JPEG checked by its bytes, not by what the browser claimed, with sides
     * the certificates can afford to draw.
     */
    async saveSignature(courseId: string, dataUrl: string, actor: Viewer) {
      // An unknown course is a 404 before the image is looked at.
      await activity.course(courseId);
      const [head, base64] = dataUrl.split(",", 2) as [string, string];
      const bytes = Buffer.from(base64, "base64");
      const detected = await fileTypeFromBuffer(bytes);
      const declared = head.slice("data:".length, head.indexOf(";"));
      if (
        bytes.length > SIGNATURE_MAX_BYTES ||
        !detected ||
        !SIGNATURE_TYPES.has(detected.mime) ||
        detected.mime !== declared ||
        !withinImageBounds(bytes)
      ) {
        throw notAnImage();
      }
      const signatureId = await repo.insertSignature(detected.mime, bytes);
      return save(courseId, { signatureId }, { actor, type: "credit.signature_updated" });
    },

    async removeSignature(courseId: string, actor: Viewer) {
      return save(courseId, { signatureId: null }, { actor, type: "credit.signature_removed" });
    },

    async signature(id: string) {
      const row = await repo.signatureOf(id);
      if (!row) throw signatureNotFound();
      return row;
    },

    /** A signature's image for a certificate's PDF; null when it is gone. */
    async signatureBytes(id: string): Promise<Uint8Array | null> {
      return (await repo.signatureOf(id))?.bytes ?? null;
    },
  };
}

export type CreditService = ReturnType<typeof createCreditService>;
