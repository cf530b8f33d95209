import type {
  AuditDetails,
  AuditEventType,
  NewFactor,
  SecondFactorStatus,
  TotpSetup,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { SecretBox } from "../../lib/secret-box";
import type { UserRow } from "../auth/auth.service";
import type { Passkeys } from "./passkeys";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes";
import {
  passkeyRegistrationInvalid,
  secretsKeyMissing,
  setupCodeInvalid,
  setupNotStarted,
  totpExists,
} from "./second-factor.errors";
import { createSecondFactorRepository } from "./second-factor.repository";
import type { SecondFactorChallengeRow } from "./second-factor.table";
import { newTotpSecret, totpStep, totpUri } from "./totp";

/** The audit trail (platform), as this feature writes to it: in the change's transaction. */
export interface SecondFactorAudit {
  append(
    tx: Executor,
    event: {
      type: AuditEventType;
      actor: { id: string; role: "admin" | "learner" } | null;
      details?: AuditDetails;
    },
  ): Promise<unknown>;
}

export interface FactorsDeps {
  db: Database;
  passkeys: Passkeys;
  /** Undefined in production without SECRETS_KEY: authenticator apps cannot be added. */
  secrets: SecretBox | undefined;
  audit: SecondFactorAudit;
  /** The issuer an authenticator app lists the account under. */
  productName: string;
  now: () => Date;
}

/** Why a code or passkey did not prove the account; null when it did. */
export type Refusal =
  | "code_invalid"
  | "code_reused"
  | "recovery_code_used"
  | "passkey_unknown"
  | "passkey_invalid";

const actorOf = (user: UserRow) => ({ id: user.id, role: user.role });

/**
 * What proves an account and how a factor is added, shared by the profile and the sign-in
 * (where an organisation's rule makes an administrator set one up before the session).
 */
/** An authenticator app's seed, or null when the key that sealed it is gone. */
function openedSeed(secrets: SecretBox, sealed: string): string | null {
  try {
    return secrets.open(sealed);
  } catch {
    return null;
  }
}

export function createFactors(deps: FactorsDeps) {
  const { db, passkeys } = deps;
  const repo = createSecondFactorRepository(db);

  function box(): SecretBox {
    if (!deps.secrets) throw secretsKeyMissing();
    return deps.secrets;
  }

  return {
    repo,
    passkeys,

    async status(userId: string): Promise<Omit<SecondFactorStatus, "required">> {
      const [factors, codes] = await Promise.all([
        repo.factorsOf(userId),
        repo.recoveryCodesOf(userId),
      ]);
      return {
        factors: factors.map((f) => ({
          id: f.id,
          method: f.method,
          name: f.name,
          createdAt: f.createdAt.toISOString(),
          lastUsedAt: f.lastUsedAt?.toISOString() ?? null,
        })),
        recoveryCodes: codes
          ? { remaining: codes.remaining, createdAt: codes.createdAt.toISOString() }
          : null,
      };
    },

    /** A new authenticator-app seed, kept sealed on the ceremony until its first code. */
    async startTotp(user: UserRow, ceremony: SecondFactorChallengeRow): Promise<TotpSetup> {
      const sealer = box();
      const own = await repo.factorsOf(user.id);
      if (own.some((f) => f.method === "totp")) throw totpExists();
      const secret = newTotpSecret();
      await repo.updateChallenge(ceremony.id, { pendingTotpSecret: sealer.seal(secret) });
      return { secret, uri: totpUri(secret, deps.productName, user.email) };
    },

    /** The options a new passkey is made with; their challenge is kept on the ceremony. */
    async startPasskey(user: UserRow, ceremony: SecondFactorChallengeRow) {
      const options = await passkeys.creationOptions(user, await repo.factorsOf(user.id));
      await repo.updateChallenge(ceremony.id, { webauthnChallenge: options.challenge });
      return options;
    },

    /**
     * Adds the factor the ceremony started, once its first code or the new passkey checks
     * out, in `tx` with its audit event. The first factor comes with recovery codes (shown
     * once); later ones keep the codes there are.
     */
    async add(
      tx: Executor,
      user: UserRow,
      ceremony: SecondFactorChallengeRow,
      input: NewFactor & { code?: string },
    ): Promise<{ recoveryCodes: string[] | null }> {
      const txRepo = createSecondFactorRepository(tx);
      const now = deps.now();
      let name: string;
      if (input.method === "totp") {
        if (!ceremony.pendingTotpSecret) throw setupNotStarted();
        const secret = box().open(ceremony.pendingTotpSecret);
        const step = totpStep(secret, input.code, now);
        if (step === null) throw setupCodeInvalid();
        name = "Authenticator app";
        const row = await txRepo.insertFactor({
          userId: user.id,
          method: "totp",
          name,
          totpSecret: ceremony.pendingTotpSecret,
          // The code that confirmed the app cannot also sign in.
          totpLastStep: step,
        });
        if (!row) throw totpExists();
      } else {
        if (!ceremony.webauthnChallenge) throw setupNotStarted();
        const credential = await passkeys.verifyCreation(
          input.response,
          ceremony.webauthnChallenge,
        );
        if (!credential) throw passkeyRegistrationInvalid();
        name = input.name.trim();
        const row = await txRepo.insertFactor({
          userId: user.id,
          method: "passkey",
          name,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString("base64url"),
          signCount: credential.counter,
          transports: credential.transports ?? [],
        });
        // The same authenticator registered twice (excludeCredentials asks browsers not to).
        if (!row) throw passkeyRegistrationInvalid();
      }
      await txRepo.updateChallenge(ceremony.id, {
        usedAt: now,
        pendingTotpSecret: null,
        webauthnChallenge: null,
      });
      await deps.audit.append(tx, {
        type: "second_factor.added",
        actor: actorOf(user),
        details: { method: input.method, name },
      });
      const first = (await txRepo.recoveryCodesOf(user.id)) === null;
      return { recoveryCodes: first ? await this.replaceCodes(tx, user) : null };
    },

    /** A fresh set of recovery codes; the earlier ones stop working. */
    async replaceCodes(tx: Executor, user: UserRow): Promise<string[]> {
      const { codes, hashes } = newRecoveryCodes();
      await createSecondFactorRepository(tx).replaceRecoveryCodes(user.id, hashes);
      await deps.audit.append(tx, {
        type: "second_factor.recovery_codes_created",
        actor: actorOf(user),
      });
      return codes;
    },

    /** Checks an authenticator-app code; a step accepted once is never accepted again. */
    async proveTotp(userId: string, code: string): Promise<Refusal | null> {
      const app = (await repo.factorsOf(userId)).find((f) => f.method === "totp");
      if (!app?.totpSecret || !deps.secrets) return "code_invalid";
      const seed = openedSeed(deps.secrets, app.totpSecret);
      // An app set up under a key the portal no longer has is orphaned: no code matches it.
      if (seed === null) return "code_invalid";
      const now = deps.now();
      const step = totpStep(seed, code, now);
      if (step === null) return "code_invalid";
      return (await repo.acceptTotpStep(app.id, step, now)) ? null : "code_reused";
    },

    /** Uses a recovery code up (the contract's schema has normalised it). */
    async proveRecovery(userId: string, code: string): Promise<Refusal | null> {
      const used = await repo.spendRecoveryCode(userId, hashRecoveryCode(code), deps.now());
      return used ? null : "recovery_code_used";
    },

    /** Checks a passkey's signature over the ceremony's challenge, for this account only. */
    async provePasskey(
      userId: string,
      response: Parameters<Passkeys["verifyAssertion"]>[0],
      challenge: string | null,
    ): Promise<Refusal | null> {
      const passkey = (await repo.factorsOf(userId)).find(
        (f) => f.method === "passkey" && f.credentialId === response.id,
      );
      if (!passkey) return "passkey_unknown";
      if (!challenge) return "passkey_invalid";
      const counter = await passkeys.verifyAssertion(response, challenge, passkey);
      if (counter === null) return "passkey_invalid";
      await repo.passkeyUsed(passkey.id, counter, deps.now());
      return null;
    },

    /** Whether a code proves the account: an authenticator-app code or a recovery code. */
    async proveCode(userId: string, code: string): Promise<boolean> {
      const digits = code.replace(/\s+/g, "");
      if (/^\d{6}$/.test(digits)) return (await this.proveTotp(userId, digits)) === null;
      const recovery = code.replace(/[\s-]+/g, "").toLowerCase();
      return (
        /^[a-z0-9]{10}$/.test(recovery) && (await this.proveRecovery(userId, recovery)) === null
      );
    },
  };
}

export type Factors = ReturnType<typeof createFactors>;
