import type { NewFactor, SecondFactorMethod, SecondStepProof } from "../../../contract";
import type { Database } from "../../db/client";
import { AppError } from "../../plugins/errors";
import type { AuthService, ClientInfo, UserRow } from "../auth/auth.service";
import type { LoginThrottle } from "../auth/login-throttle";
import type { Factors, Refusal, SecondFactorAudit } from "./factors";
import {
  challengeExpired,
  codeInvalid,
  codeReused,
  passkeyInvalid,
  passkeyUnknown,
  recoveryCodeUsed,
  setupNotRequired,
  setupRequired,
} from "./second-factor.errors";
import { createSecondFactorRepository } from "./second-factor.repository";
import type { SecondFactorChallengeRow } from "./second-factor.table";
import { hashStepToken } from "./sign-in-gate";

export interface SecondStepDeps {
  db: Database;
  factors: Factors;
  throttle: LoginThrottle;
  audit: SecondFactorAudit;
  auth: Pick<AuthService, "findUser" | "finishSignIn">;
  now: () => Date;
}

const REFUSALS: Record<Refusal | "expired", () => AppError> = {
  code_invalid: codeInvalid,
  code_reused: codeReused,
  recovery_code_used: recoveryCodeUsed,
  passkey_unknown: passkeyUnknown,
  passkey_invalid: passkeyInvalid,
  expired: challengeExpired,
};

/** The proof as the audit trail names it: the code itself is never recorded. */
type Proof = { method: SecondFactorMethod };

/**
 * The second step of an administrator's sign-in, on the browser that gave the password (its
 * HttpOnly cookie names the pending step): a passkey, an authenticator-app code or a recovery
 * code, or, when the organisation requires a factor the account lacks, setting one up. Each
 * failure counts in the sign-in throttle like a wrong password; success starts the session
 * the password asked for (Remember me included) and uses the step up.
 */
export function createSecondStepService(deps: SecondStepDeps) {
  const { db, factors, throttle, audit } = deps;
  const repo = createSecondFactorRepository(db);

  async function refuse(user: UserRow, proof: Proof, reason: Refusal | "expired"): Promise<never> {
    await audit.append(db, {
      type: "second_factor.refused",
      actor: { id: user.id, role: user.role },
      details: { method: proof.method, reason },
    });
    throw REFUSALS[reason]();
  }

  /** The browser's live pending step and its account; a used or lapsed one is refused. */
  async function pending(token: string | undefined, proof: Proof) {
    const row = token ? await repo.findSignIn(hashStepToken(token)) : undefined;
    const user = row ? await deps.auth.findUser(row.userId) : undefined;
    if (!row || !user) throw challengeExpired();
    if (row.usedAt || row.expiresAt <= deps.now()) return refuse(user, proof, "expired");
    return { row, user };
  }

  /** Starts the session of a step that succeeded, once: a replayed step finds it used. */
  async function finish(
    row: SecondFactorChallengeRow,
    user: UserRow,
    proof: Proof,
    client: ClientInfo,
  ) {
    await audit.append(db, {
      type: "second_factor.passed",
      actor: { id: user.id, role: user.role },
      details: { method: proof.method },
    });
    return deps.auth.finishSignIn({
      userId: user.id,
      rememberMe: row.rememberMe,
      device: row.device,
      client,
    });
  }

  return {
    /** The options to sign the pending step's challenge with; a new one retires the last. */
    async passkeyOptions(token: string | undefined) {
      const { row, user } = await pending(token, { method: "passkey" });
      if (row.setupRequired) throw setupRequired();
      const own = (await repo.factorsOf(user.id)).filter((f) => f.method === "passkey");
      const options = await factors.passkeys.requestOptions(own);
      await repo.updateChallenge(row.id, { webauthnChallenge: options.challenge });
      return options;
    },

    /** Checks one proof of the pending sign-in and starts its session. */
    async verify(input: { token: string | undefined; proof: SecondStepProof; client: ClientInfo }) {
      const { proof } = input;
      const { row, user } = await pending(input.token, proof);
      if (row.setupRequired) throw setupRequired();
      const attempt = await throttle.beginAttempt(user.email, input.client.ip, row.device);
      const refusal =
        proof.method === "totp"
          ? await factors.proveTotp(user.id, proof.code)
          : proof.method === "recovery"
            ? await factors.proveRecovery(user.id, proof.code)
            : await factors.provePasskey(user.id, proof.response, row.webauthnChallenge);
      if (refusal) {
        await throttle.recordFailure();
        return refuse(user, proof, refusal);
      }
      await throttle.withdraw(attempt);
      if (!(await repo.consumeChallenge(row.id, deps.now()))) return refuse(user, proof, "expired");
      return finish(row, user, proof, input.client);
    },

    /** Begins setting up the factor the organisation requires, before any session. */
    async startSetup(token: string | undefined, method: "totp" | "passkey") {
      const { row, user } = await pending(token, { method });
      if (!row.setupRequired) throw setupNotRequired();
      return method === "totp" ? factors.startTotp(user, row) : factors.startPasskey(user, row);
    },

    /**
     * Adds the required factor and starts the session, with the recovery codes to keep. A
     * wrong first code counts like a wrong password.
     */
    async finishSetup(input: { token: string | undefined; factor: NewFactor; client: ClientInfo }) {
      const proof = { method: input.factor.method };
      const { row, user } = await pending(input.token, proof);
      if (!row.setupRequired) throw setupNotRequired();
      const attempt = await throttle.beginAttempt(user.email, input.client.ip, row.device);
      let recoveryCodes: string[] | null;
      try {
        ({ recoveryCodes } = await db.transaction(async (tx) => {
          if (!(await createSecondFactorRepository(tx).consumeChallenge(row.id, deps.now()))) {
            throw challengeExpired();
          }
          return factors.add(tx, user, row, input.factor);
        }));
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 400) {
          await throttle.recordFailure();
          await audit.append(db, {
            type: "second_factor.refused",
            actor: { id: user.id, role: user.role },
            details: { method: proof.method, reason: error.code },
          });
        } else {
          await throttle.withdraw(attempt);
        }
        throw error;
      }
      await throttle.withdraw(attempt);
      const signedIn = await finish(row, user, proof, input.client);
      return { ...signedIn, recoveryCodes: recoveryCodes ?? [] };
    },
  };
}

export type SecondStepService = ReturnType<typeof createSecondStepService>;
