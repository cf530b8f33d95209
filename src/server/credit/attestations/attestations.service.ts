import {
  type AttestBody,
  type AttestWithIdentifiersBody,
  type ClaimRegulatorIds,
  type CreditType,
  isOnStep,
  REGULATORS,
  type Regulator,
  reportingConsentStatement,
  withCreditText,
} from "../../../contract";
import type { Executor } from "../../db/client";
import { defineStep } from "../../learning";
import type { Events } from "../../lib/events";
import type { OrganisationService } from "../../platform";
import { retainUntil } from "../activity/activity.read-model";
import type { ActivityService } from "../activity/activity.service";
import type { IdentifiersService } from "../identifiers/identifiers.service";
import {
  attestationDone,
  attestationNotAsked,
  claimNeeded,
  claimOffStep,
  claimTooHigh,
  noPartialCredit,
  regulatorIdsMissing,
  reportingConsentRequired,
  statementChanged,
  unknownCreditType,
} from "./attestations.errors";
import { type AttestationSettings, loadAttestationSettings } from "./attestations.read-model";
import { createAttestationsRepository, type StoredClaim } from "./attestations.repository";
import type { CourseAttestationRow } from "./attestations.table";

/** The attestation as a step of completion: required when the course asks for it. */
export const attestationStep = defineStep<AttestationSettings>({
  key: "attestation",
  load: loadAttestationSettings,
  record: {
    isRequired: (settings) => settings?.attestationRequired ?? false,
    async doneAt(tx, enrollment) {
      return (
        (await createAttestationsRepository(tx).attestationOf(enrollment.id))?.attestedAt ?? null
      );
    },
  },
});

export interface AttestationsServiceDeps {
  /** The catalogue tells of two credit types merged: claims follow into the one kept. */
  events: Pick<Events, "subscribe">;
  /** The activity feature: the unit of a credit step, with the course's statement. */
  activity: Pick<ActivityService, "takeCreditStep">;
  /** The provider the learner agrees may report a completion (its name, in the consent). */
  organisation: Pick<OrganisationService, "profile">;
  /** The learner's one record of identifiers, into which the attestation saves what it asked. */
  identifiers: Pick<IdentifiersService, "saveIn">;
  /** The clock of the credit records; tests pass one they move by hand. */
  now?: () => Date;
  /**
   * Regulator reporting: which regulators a claimed type reports to and the learner's
   * identifiers for them. Handed in, since reporting reads the attestations it reports.
   */
  regulators: {
    claimRegulatorIds(
      tx: Executor,
      userId: string,
      creditTypeIds: string[],
    ): Promise<{
      byType: Map<string, ClaimRegulatorIds>;
      missing: { regulator: Regulator; missing: string[] }[];
    }>;
  };
}

/**
 * The credit a learner claims of one offered type: its whole amount, or up to it in the
 * type's claim step when it has one. Refused as sent, never rounded or capped to fit.
 */
function claimOf(type: CreditType, amount: number | null | undefined): StoredClaim {
  let claimed = type.amount;
  if (type.claimStep !== null) {
    if (amount == null) throw claimNeeded();
    if (amount > type.amount) throw claimTooHigh(type.amount, type.name);
    if (!isOnStep(amount, type.claimStep)) throw claimOffStep(type.claimStep, type.name);
    claimed = amount;
  } else if (amount != null && amount !== type.amount) {
    throw noPartialCredit();
  }
  return {
    creditTypeId: type.id,
    catalogueTypeId: type.catalogueTypeId,
    name: type.name,
    singularName: type.singularName,
    amount: claimed,
    maxAmount: type.amount,
    accreditingBody: type.accreditingBody,
    providerNumber: type.providerNumber,
    regulatorIds: null,
  };
}

/**
 * The credit claimed of each type the learner names, in the course's order. A course with
 * one type also takes the claim as an amount alone (`creditsClaimed`), naming no type; a
 * course with several needs at least one named.
 */
function claimsOf(types: CreditType[], body: AttestBody): StoredClaim[] {
  if (!body.claims) {
    if (types.length > 1) throw claimNeeded();
    if (types.length === 0) {
      if (body.creditsClaimed != null) throw noPartialCredit();
      return [];
    }
    return [claimOf(types[0]!, body.creditsClaimed)];
  }
  if (types.length && !body.claims.length) throw claimNeeded();
  const claimed = new Map(body.claims.map((c) => [c.creditTypeId, c.amount]));
  for (const id of claimed.keys()) {
    if (!types.some((t) => t.id === id)) throw unknownCreditType();
  }
  return types.filter((t) => claimed.has(t.id)).map((t) => claimOf(t, claimed.get(t.id)));
}

type Recorded = { statement: string; creditsClaimed: number | null; credits: StoredClaim[] };

/** What an attestation answers: when it was signed and the credit it claimed. */
const answerOf = (attestation: Recorded & { attestedAt: Date }) => ({
  attestedAt: attestation.attestedAt.toISOString(),
  creditsClaimed: attestation.creditsClaimed,
  credits: attestation.credits.map(withCreditText),
});

/** Whether a body affirms the statement recorded and claims exactly the credit recorded. */
function sameAttestation(recorded: Recorded, body: AttestBody, types: CreditType[]) {
  if (body.statement !== recorded.statement) return false;
  let claimed: StoredClaim[];
  try {
    claimed = claimsOf(types, body);
  } catch {
    return false;
  }
  const amounts = (claims: StoredClaim[]) =>
    claims
      .map((c) => `${c.creditTypeId}:${c.amount}`)
      .sort()
      .join(",");
  return amounts(claimed) === amounts(recorded.credits);
}

/** A request's origin, kept with an attestation. */
export type Origin = { ip: string; userAgent: string | null };

/** The learner's attestation: the statement affirmed and the credit claimed. */
export function createAttestationsService(deps: AttestationsServiceDeps) {
  const { activity, organisation } = deps;
  const now = deps.now ?? (() => new Date());

  deps.events.subscribe("catalogue.types-merged", {
    inTransaction: (tx, { fromId, intoId }) =>
      createAttestationsRepository(tx).relinkCatalogueType(fromId, intoId),
  });

  return {
    /**
     * Saves whether the course asks learners to attest, and the statement, in `tx`: the row
     * as it was and is now.
     */
    saveIn: (
      tx: Executor,
      courseId: string,
      values: Pick<CourseAttestationRow, "attestationRequired" | "attestationText">,
    ) => createAttestationsRepository(tx).editSettings(courseId, values),

    /**
     * The learner affirms the course's statement, word for word as it stands, and claims
     * credit: the designated credit, or up to it in the course's steps. A claim of a type
     * reporting to a regulator also needs the learner's consent to the reporting, which the
     * claim keeps with the identifiers. Identifiers sent with it are saved into the learner's
     * record in the same transaction.
     */
    async attest(
      userId: string,
      courseId: string,
      body: AttestWithIdentifiersBody,
      origin: Origin,
    ) {
      return activity.takeCreditStep({
        userId,
        courseId,
        step: attestationStep,
        async write(unit) {
          const { tx, enrollment, identity, activity: row } = unit;
          const settings = unit.settingsOf(attestationStep);
          const txRepo = createAttestationsRepository(tx);
          if (!settings?.attestationRequired) throw attestationNotAsked();
          await unit.assertInOrder();
          const recorded = await txRepo.attestationOf(enrollment.id);
          if (recorded) {
            // The learner's own repeat (a double click, a retry) answers as the first did;
            // another statement or claim is a second attestation, which is refused.
            if (!sameAttestation(recorded, body, unit.context.course.creditTypes)) {
              throw attestationDone();
            }
            return answerOf(recorded);
          }
          if (body.statement !== settings.attestationText) throw statementChanged();
          // What the page asked for joins the learner's record with the attestation, so the
          // claim below copies it and the certificate's licence rule counts it.
          if (body.identifiers) await deps.identifiers.saveIn(tx, userId, body.identifiers);
          // A type reporting to regulators keeps the identifiers the learner gave them, as
          // they stand now: a later change of the profile never rewrites what was reported.
          const claimed = claimsOf(unit.context.course.creditTypes, body);
          const reported = await deps.regulators.claimRegulatorIds(
            tx,
            userId,
            claimed.flatMap((c) => (c.creditTypeId ? [c.creditTypeId] : [])),
          );
          const [needed] = reported.missing;
          if (needed) throw regulatorIdsMissing(needed.regulator, needed.missing);
          const regulators = REGULATORS.filter((r) =>
            [...reported.byType.values()].some((ids) => ids.regulators.includes(r)),
          );
          if (regulators.length && body.reportingConsent !== true) {
            throw reportingConsentRequired(regulators);
          }
          // Each claim keeps the consent to its own regulators' reporting, word for word.
          const provider = regulators.length ? (await organisation.profile(tx)).issuerName : "";
          const claims = claimed.map((c) => {
            const ids = c.creditTypeId ? reported.byType.get(c.creditTypeId) : undefined;
            return {
              ...c,
              regulatorIds: ids
                ? { ...ids, consent: reportingConsentStatement(provider, ids.regulators) }
                : null,
            };
          });
          const single = claims.length === 1 ? claims[0]! : null;
          const at = now();
          const attestation = await txRepo.insertAttestation(
            {
              ...identity,
              statement: settings.attestationText,
              creditsClaimed: single?.amount ?? null,
              designatedCredits: single?.maxAmount ?? null,
              ip: origin.ip,
              userAgent: origin.userAgent,
              attestedAt: at,
              retainUntil: retainUntil(row, at),
            },
            claims,
          );
          await unit.audit({
            type: "attestation.signed",
            details: {
              statement: attestation.statement,
              creditsClaimed: single?.amount ?? null,
              designatedCredits: single?.maxAmount ?? null,
              claims: claims.map((c) => ({ name: c.name, amount: c.amount, of: c.maxAmount })),
              ip: origin.ip,
              userAgent: origin.userAgent,
              ...(regulators.length
                ? { reportingConsent: reportingConsentStatement(provider, regulators) }
                : {}),
            },
          });
          return answerOf(attestation);
        },
      });
    },
  };
}

export type AttestationsService = ReturnType<typeof createAttestationsService>;
