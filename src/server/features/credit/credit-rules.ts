import {
  type ActivityBody,
  type CertificateCredit,
  type CreditSettings,
  DEFAULT_ACTIVITY,
  DEFAULT_CREDIT_SETTINGS,
  DEFAULT_EVALUATION_ITEMS,
  type EvaluationItem,
  hasLicence,
  type Licence,
} from "../../../contract";
import type { Executor } from "../../db/client";
import type {
  CertificateGate,
  CompletionRequirement,
  ModuleRequirement,
} from "../enrollments/completion-steps";
import type { EnrollmentRow } from "../enrollments/enrollments.table";
import { acknowledgeFirst, courseExpired, enrollmentExpired } from "./credit.errors";
import { createCreditRepository } from "./credit.repository";
import type { CourseActivityRow } from "./credit.table";

const DAY_MS = 86_400_000;

/** The activity fields of a stored row, or the defaults of a plain course. */
export function activityFields(row: CourseActivityRow | undefined): ActivityBody {
  if (!row) return DEFAULT_ACTIVITY;
  return {
    objectives: row.objectives,
    faculty: row.faculty,
    disclosureStatement: row.disclosureStatement,
    accreditationStatement: row.accreditationStatement,
    releaseDate: row.releaseDate,
    reviewDate: row.reviewDate,
    expirationDate: row.expirationDate,
    enrollmentValidDays: row.enrollmentValidDays,
    acknowledgementRequired: row.acknowledgementRequired,
    evaluationRequired: row.evaluationRequired,
    attestationRequired: row.attestationRequired,
    attestationText: row.attestationText,
    partialCreditStep: row.partialCreditStep,
    retentionYears: row.retentionYears,
  };
}

export function creditSettingsOf(row: CourseActivityRow | undefined): CreditSettings {
  if (!row) return DEFAULT_CREDIT_SETTINGS;
  return {
    sponsorName: row.sponsorName,
    sponsorAddress: row.sponsorAddress,
    deliveryMethod: row.deliveryMethod,
    fieldsOfStudy: row.fieldsOfStudy,
    registryNumber: row.registryNumber,
    officialName: row.officialName,
    officialTitle: row.officialTitle,
    licenceRequired: row.licenceRequired,
    signatureId: row.signatureId,
  };
}

export const evaluationItemsOf = (row: CourseActivityRow | undefined): EvaluationItem[] =>
  row?.evaluationItems ?? DEFAULT_EVALUATION_ITEMS;

/** After the expiration date (a whole UTC day) nobody starts the course or earns its credit. */
export const isCourseExpired = (row: CourseActivityRow | undefined, now: Date) =>
  Boolean(row?.expirationDate && now.toISOString().slice(0, 10) > row.expirationDate);

/** The end of the enrollment's validity window, when the course has one. */
export function enrollmentEndsAt(row: CourseActivityRow | undefined, enrolledAt: Date) {
  return row?.enrollmentValidDays
    ? new Date(enrolledAt.getTime() + row.enrollmentValidDays * DAY_MS)
    : null;
}

/**
 * The first moment no step may be taken on the enrollment any more (assertOpen's rule as a
 * date): the day after the course's expiration date, or the end of the enrollment's
 * validity window, whichever comes first; null when neither is set.
 */
export function validUntil(row: CourseActivityRow | undefined, enrolledAt: Date): Date | null {
  const courseEnd = row?.expirationDate
    ? new Date(Date.parse(`${row.expirationDate}T00:00:00Z`) + DAY_MS)
    : null;
  const enrollmentEnd = enrollmentEndsAt(row, enrolledAt);
  if (!courseEnd || !enrollmentEnd) return courseEnd ?? enrollmentEnd;
  return new Date(Math.min(courseEnd.getTime(), enrollmentEnd.getTime()));
}

export function assertOpen(
  row: CourseActivityRow | undefined,
  enrollment: EnrollmentRow,
  now: Date,
) {
  if (isCourseExpired(row, now)) throw courseExpired();
  const end = enrollmentEndsAt(row, enrollment.createdAt);
  if (end && now >= end) throw enrollmentExpired();
}

/** How long a credit record is kept: the course's retention from the time of the record. */
export function retainUntil(row: CourseActivityRow | undefined, at: Date): Date {
  const until = new Date(at);
  until.setUTCFullYear(
    until.getUTCFullYear() + (row?.retentionYears ?? DEFAULT_ACTIVITY.retentionYears),
  );
  return until;
}

export function licenceOf(row: Licence | undefined): Licence | null {
  if (!row) return null;
  const licence = {
    licenceType: row.licenceType,
    licenceNumber: row.licenceNumber,
    licenceState: row.licenceState,
    npn: row.npn,
  };
  return Object.values(licence).some(Boolean) ? licence : null;
}

/**
 * The credit claim's parts of the completion order (ARCHITECTURE section 6): the
 * acknowledgement before the modules, the evaluation and attestation after the exam, the
 * rules on each module and on enrolling (validity), and the certificate's last check.
 */
export function createCreditSteps(now: () => Date) {
  const activityOf = (tx: Executor, courseId: string) =>
    createCreditRepository(tx).activityOf(courseId);

  const acknowledgeStep: CompletionRequirement = {
    key: "acknowledge",
    async isRequired(tx, courseId) {
      return (await activityOf(tx, courseId))?.acknowledgementRequired ?? false;
    },
    async doneAt(tx, enrollment) {
      return (
        (await createCreditRepository(tx).acknowledgementOf(enrollment.id))?.acknowledgedAt ?? null
      );
    },
  };

  const evaluationStep: CompletionRequirement = {
    key: "evaluation",
    async isRequired(tx, courseId) {
      return (await activityOf(tx, courseId))?.evaluationRequired ?? false;
    },
    async doneAt(tx, enrollment) {
      return (await createCreditRepository(tx).submissionOf(enrollment.id))?.submittedAt ?? null;
    },
  };

  const attestationStep: CompletionRequirement = {
    key: "attestation",
    async isRequired(tx, courseId) {
      return (await activityOf(tx, courseId))?.attestationRequired ?? false;
    },
    async doneAt(tx, enrollment) {
      return (await createCreditRepository(tx).attestationOf(enrollment.id))?.attestedAt ?? null;
    },
  };

  /** No module completes on an expired course or enrollment, nor before the acknowledgement. */
  const moduleRule: ModuleRequirement = {
    async prepare() {
      return async (tx: Executor, enrollment: EnrollmentRow) => {
        await stepRule(tx, enrollment);
        const activity = await activityOf(tx, enrollment.courseId);
        if (!activity?.acknowledgementRequired) return;
        if (!(await createCreditRepository(tx).acknowledgementOf(enrollment.id))) {
          throw acknowledgeFirst();
        }
      };
    },
  };

  const certificateGate: CertificateGate = {
    async canIssue(tx, enrollment, at) {
      const activity = await activityOf(tx, enrollment.courseId);
      if (!activity) return true;
      if (isCourseExpired(activity, at)) return false;
      const end = enrollmentEndsAt(activity, enrollment.createdAt);
      if (end && at >= end) return false;
      if (!activity.licenceRequired) return true;
      const licence = await createCreditRepository(tx).licenceOf(enrollment.userId);
      return Boolean(licence && hasLicence(licence));
    },
    async creditFacts(tx, enrollment) {
      const txRepo = createCreditRepository(tx);
      const activity = await txRepo.activityOf(enrollment.courseId);
      if (!activity) return { credit: null };
      const attestation = await txRepo.attestationOf(enrollment.id);
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
        licence: licenceOf(await txRepo.licenceOf(enrollment.userId)),
        attestedAt: attestation?.attestedAt.toISOString() ?? null,
      };
      return { credit };
    },
  };

  /** No step is taken on an expired course or enrollment. */
  const stepRule = async (tx: Executor, enrollment: EnrollmentRow) =>
    assertOpen(await activityOf(tx, enrollment.courseId), enrollment, now());

  return {
    before: [acknowledgeStep],
    stepRule,
    after: [evaluationStep, attestationStep],
    moduleRule,
    certificateGate,
  };
}
