import { type Activity, type ActivityBody, withCreditText } from "../../../contract";
import type { Database } from "../../db/client";
import type { ActivityService, Viewer } from "../activity/activity.service";
import { attestationOf, loadAttestationSettings } from "../attestations/attestations.read-model";
import type { AttestationsService } from "../attestations/attestations.service";
import { creditSettingsOf, loadCreditSettings } from "../credit/credit.read-model";
import { loadEvaluationSettings } from "../evaluations/evaluations.read-model";
import type { EvaluationsService } from "../evaluations/evaluations.service";

export interface AccreditationServiceDeps {
  db: Database;
  /** The page's own fields and rules, the learner's standing, and the one edit of settings. */
  activity: Pick<ActivityService, "page" | "edit" | "saveIn">;
  /** Whether the course asks for its evaluation. */
  evaluations: Pick<EvaluationsService, "saveIn">;
  /** Whether the course asks learners to attest, and the statement. */
  attestations: Pick<AttestationsService, "saveIn">;
}

/** The latest of the parts' saves: when the page last changed, or null for the defaults. */
const latest = (...dates: (Date | null | undefined)[]) => {
  const times = dates.flatMap((d) => (d ? [d.getTime()] : []));
  return times.length ? new Date(Math.max(...times)).toISOString() : null;
};

/**
 * The course's accreditation page ("About this activity", GET and PUT
 * /api/courses/{id}/activity): the activity's own fields and rules, whether the course asks
 * for the evaluation and the attestation, and the credit settings, each kept by its own
 * feature, read through their read models; saved together in one transaction with one audit
 * event.
 */
export function createAccreditationService(deps: AccreditationServiceDeps) {
  const { db } = deps;

  async function page(viewer: Viewer, courseId: string): Promise<Activity> {
    const own = await deps.activity.page(viewer, courseId);
    const [evaluation, attestation, credit] = await Promise.all([
      loadEvaluationSettings(db, courseId),
      loadAttestationSettings(db, courseId),
      loadCreditSettings(db, courseId),
    ]);
    let standing: Activity["standing"] = null;
    if (own.standing) {
      const { enrollmentId, ...rest } = own.standing;
      const attested = await attestationOf(db, enrollmentId);
      standing = {
        ...rest,
        attestation: attested
          ? {
              attestedAt: attested.attestedAt.toISOString(),
              creditsClaimed: attested.creditsClaimed,
              credits: attested.credits.map(withCreditText),
            }
          : null,
      };
    }
    return {
      courseId,
      ...own.fields,
      evaluationRequired: evaluation?.evaluationRequired ?? false,
      attestationRequired: attestation?.attestationRequired ?? false,
      attestationText: attestation?.attestationText ?? "",
      estimatedHours: own.course.duration,
      creditTypes: own.course.creditTypes,
      courseExpired: own.courseExpired,
      credit: creditSettingsOf(credit),
      standing,
      updatedAt: latest(
        own.updatedAt,
        evaluation?.updatedAt,
        attestation?.updatedAt,
        credit?.updatedAt,
      ),
    };
  }

  return {
    page,

    /** Saves the whole page, each part to its owner, and answers it as it stands. */
    async save(courseId: string, body: ActivityBody, viewer: Viewer): Promise<Activity> {
      const { evaluationRequired, attestationRequired, attestationText, ...own } = body;
      await deps.activity.edit(
        courseId,
        { actor: viewer, type: "activity.updated" },
        Object.keys(body),
        async (tx) => {
          const activity = await deps.activity.saveIn(tx, courseId, own);
          const evaluation = await deps.evaluations.saveIn(tx, courseId, { evaluationRequired });
          const attestation = await deps.attestations.saveIn(tx, courseId, {
            attestationRequired,
            attestationText,
          });
          return {
            before: { ...activity.before, ...evaluation.before, ...attestation.before },
            after: { ...activity.after, ...evaluation.after, ...attestation.after },
          };
        },
      );
      return page(viewer, courseId);
    },
  };
}

export type AccreditationService = ReturnType<typeof createAccreditationService>;
