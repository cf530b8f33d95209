import { type AttestBody, isOnStep } from "../../../contract";
import { retainUntil } from "../activity/activity.read-model";
import type { ActivityService } from "../activity/activity.service";
import { attestationStep } from "./attestation.step";
import {
  attestationDone,
  attestationNotAsked,
  claimNeeded,
  claimOffStep,
  claimTooHigh,
  noPartialCredit,
  statementChanged,
} from "./attestations.errors";
import { createAttestationsRepository } from "./attestations.repository";

export interface AttestationsServiceDeps {
  /** The activity feature: the unit of a credit step, with the course's statement. */
  activity: Pick<ActivityService, "takeCreditStep">;
  /** The clock of the credit records; tests pass one they move by hand. */
  now?: () => Date;
}

/** A request's origin, kept with an attestation. */
export type Origin = { ip: string; userAgent: string | null };

/** The learner's attestation: the statement affirmed and the credit claimed. */
export function createAttestationsService(deps: AttestationsServiceDeps) {
  const { activity } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    /**
     * The learner affirms the course's statement, word for word as it stands, and claims
     * credit: the designated credit, or up to it in the course's steps.
     */
    async attest(userId: string, courseId: string, body: AttestBody, origin: Origin) {
      return activity.takeCreditStep({
        userId,
        courseId,
        step: attestationStep,
        async write(unit) {
          const { tx, enrollment, identity, activity: row } = unit;
          const txRepo = createAttestationsRepository(tx);
          if (!row?.attestationRequired) throw attestationNotAsked();
          await unit.assertInOrder();
          if (await txRepo.attestationOf(enrollment.id)) throw attestationDone();
          if (body.statement !== row.attestationText) throw statementChanged();
          const designated = unit.context.course.creditHours;
          const stepSize = row.partialCreditStep;
          let claimed = designated;
          if (stepSize !== null && designated !== null) {
            if (body.creditsClaimed === null) throw claimNeeded();
            if (body.creditsClaimed > designated) throw claimTooHigh(designated);
            if (!isOnStep(body.creditsClaimed, stepSize)) throw claimOffStep(stepSize);
            claimed = body.creditsClaimed;
          } else if (body.creditsClaimed !== null && body.creditsClaimed !== designated) {
            throw noPartialCredit();
          }
          const at = now();
          const attestation = await txRepo.insertAttestation({
            ...identity,
            statement: row.attestationText,
            creditsClaimed: claimed,
            designatedCredits: designated,
            ip: origin.ip,
            userAgent: origin.userAgent,
            attestedAt: at,
            retainUntil: retainUntil(row, at),
          });
          await unit.audit({
            type: "attestation.signed",
            details: {
              statement: attestation.statement,
              creditsClaimed: claimed,
              designatedCredits: designated,
              ip: origin.ip,
              userAgent: origin.userAgent,
            },
          });
          return {
            attestedAt: attestation.attestedAt.toISOString(),
            creditsClaimed: attestation.creditsClaimed,
          };
        },
      });
    },
  };
}

export type AttestationsService = ReturnType<typeof createAttestationsService>;
