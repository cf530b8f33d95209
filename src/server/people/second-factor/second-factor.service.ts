import {
  type FactorConfirmation,
  type NewFactor,
  SECOND_STEP_TTL_MS,
  type SecondFactorStatus,
} from "../../../contract";
import type { Database } from "../../db/client";
import type { UserRow } from "../auth/auth.service";
import type { LoginThrottle } from "../auth/login-throttle";
import type { PasswordHasher } from "../auth/passwords";
import type { Factors, SecondFactorAudit } from "./factors";
import {
  confirmationWrong,
  enrolFirst,
  factorNotFound,
  requiredByOrganisation,
  setupNotStarted,
} from "./second-factor.errors";
import { createSecondFactorRepository } from "./second-factor.repository";

export interface SecondFactorServiceDeps {
  db: Database;
  factors: Factors;
  throttle: LoginThrottle;
  passwords: PasswordHasher;
  audit: SecondFactorAudit;
  now: () => Date;
}

const actorOf = (user: UserRow) => ({ id: user.id, role: user.role });

/**
 * A signed-in administrator's own factors (from the profile) and the organisation's rule.
 * Removing a factor or making new recovery codes asks for the password or a code again,
 * counted like sign-in failures: a borrowed session alone cannot strip the account bare.
 */
export function createSecondFactorService(deps: SecondFactorServiceDeps) {
  const { db, factors, throttle } = deps;
  const repo = createSecondFactorRepository(db);

  async function status(user: UserRow): Promise<SecondFactorStatus> {
    const [own, required] = await Promise.all([factors.status(user.id), repo.policyRequired()]);
    return { ...own, required };
  }

  /** A fresh ceremony for adding a factor: one per account, the last one begun. */
  async function newCeremony(user: UserRow) {
    await repo.deleteEnrolment(user.id);
    return repo.insertChallenge({
      purpose: "enrol",
      userId: user.id,
      expiresAt: new Date(deps.now().getTime() + 2 * SECOND_STEP_TTL_MS),
    });
  }

  async function confirm(user: UserRow, confirmation: FactorConfirmation, ip: string) {
    const attempt = await throttle.beginAttempt(user.email, ip);
    const byPassword =
      confirmation.password !== undefined && user.passwordHash
        ? await deps.passwords.verify(confirmation.password, user.passwordHash)
        : false;
    const ok =
      byPassword ||
      (confirmation.code !== undefined && (await factors.proveCode(user.id, confirmation.code)));
    if (!ok) {
      await throttle.recordFailure();
      throw confirmationWrong();
    }
    await throttle.withdraw(attempt);
  }

  return {
    status,

    startTotp: async (user: UserRow) => factors.startTotp(user, await newCeremony(user)),
    startPasskey: async (user: UserRow) => factors.startPasskey(user, await newCeremony(user)),

    /** Adds the factor begun last; the account's first factor comes with recovery codes. */
    async add(user: UserRow, factor: NewFactor) {
      const ceremony = await repo.findEnrolment(user.id);
      if (!ceremony || ceremony.usedAt || ceremony.expiresAt <= deps.now()) {
        throw setupNotStarted();
      }
      const { recoveryCodes } = await db.transaction((tx) =>
        factors.add(tx, user, ceremony, factor),
      );
      return { ...(await status(user)), newRecoveryCodes: recoveryCodes };
    },

    /** Removes one factor; with the last one go the recovery codes, unless the rule forbids it. */
    async remove(user: UserRow, id: string, confirmation: FactorConfirmation, ip: string) {
      const own = await repo.factorsOf(user.id);
      const factor = own.find((f) => f.id === id);
      if (!factor) throw factorNotFound();
      if (own.length === 1 && (await repo.policyRequired())) throw requiredByOrganisation();
      await confirm(user, confirmation, ip);
      await db.transaction(async (tx) => {
        const txRepo = createSecondFactorRepository(tx);
        // Two removals at once count what the other left: the organisation's rule holds.
        const left = await txRepo.lockFactorsOf(user.id);
        if (!left.includes(id)) throw factorNotFound();
        if (left.length === 1 && (await txRepo.policyRequired())) throw requiredByOrganisation();
        await txRepo.deleteFactor(user.id, id);
        if (left.length === 1) await txRepo.deleteRecoveryCodes(user.id);
        await deps.audit.append(tx, {
          type: "second_factor.removed",
          actor: actorOf(user),
          details: { method: factor.method, name: factor.name },
        });
      });
      return { status: await status(user), removed: factor };
    },

    /** New recovery codes, shown once; the earlier ones stop working. */
    async renewRecoveryCodes(user: UserRow, confirmation: FactorConfirmation, ip: string) {
      if ((await repo.countFactors(user.id)) === 0) throw factorNotFound();
      await confirm(user, confirmation, ip);
      return db.transaction((tx) => factors.replaceCodes(tx, user));
    },

    policy: async () => ({ required: await repo.policyRequired() }),

    /** Requiring a factor of everyone starts with the administrator who turns it on. */
    async setPolicy(user: UserRow, required: boolean) {
      if (required && (await repo.countFactors(user.id)) === 0) throw enrolFirst();
      await db.transaction(async (tx) => {
        await createSecondFactorRepository(tx).setPolicy(required);
        await deps.audit.append(tx, {
          type: "second_factor.policy_updated",
          actor: actorOf(user),
          details: { required },
        });
      });
      return { required };
    },
  };
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
