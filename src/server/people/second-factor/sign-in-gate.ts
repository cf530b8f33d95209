import { createHash, randomBytes } from "node:crypto";
import { SECOND_STEP_TTL_MS, type SecondFactorMethod } from "../../../contract";
import type { Database } from "../../db/client";
import type { UserRow } from "../auth/auth.service";
import type { SignInHandOver } from "../auth/sign-in-hand-over";
import { signInRequired } from "./second-factor.errors";
import { createSecondFactorRepository } from "./second-factor.repository";

/** The pending second step's cookie: sent only to the second step's own routes. */
export const SECOND_STEP_COOKIE = "credo_second_step";
export const SECOND_STEP_PATH = "/api/auth/second-factor";

export const hashStepToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Decides, after the password, whether an administrator's sign-in waits for a second step:
 * always with a factor set up; without one, when the organisation requires one (then the
 * step sets one up). Learners, and administrators the rule does not cover, sign in as before.
 */
export function createSignInGate(deps: { db: Database; secureCookies: boolean; now: () => Date }) {
  const repo = createSecondFactorRepository(deps.db);

  async function needed(user: UserRow) {
    if (user.role !== "admin") return null;
    const [factors, codes] = await Promise.all([
      repo.factorsOf(user.id),
      repo.recoveryCodesOf(user.id),
    ]);
    if (factors.length > 0) {
      const methods: SecondFactorMethod[] = [];
      if (factors.some((f) => f.method === "passkey")) methods.push("passkey");
      if (factors.some((f) => f.method === "totp")) methods.push("totp");
      if (codes && codes.remaining > 0) methods.push("recovery");
      return { setupRequired: false, methods };
    }
    return (await repo.policyRequired()) ? { setupRequired: true, methods: [] } : null;
  }

  const gate: SignInHandOver = {
    async begin({ user, rememberMe, device }) {
      const need = await needed(user);
      if (!need) return null;
      const now = deps.now();
      // Ceremonies left unfinished are swept as new ones begin.
      await repo.purgeChallenges(now);
      const token = randomBytes(32).toString("base64url");
      const expiresAt = new Date(now.getTime() + SECOND_STEP_TTL_MS);
      await repo.insertChallenge({
        purpose: "sign-in",
        tokenHash: hashStepToken(token),
        userId: user.id,
        rememberMe,
        setupRequired: need.setupRequired,
        device,
        expiresAt,
      });
      return {
        answer: { secondFactor: { ...need, expiresAt: expiresAt.toISOString() } },
        cookie: {
          name: SECOND_STEP_COOKIE,
          value: token,
          options: {
            path: SECOND_STEP_PATH,
            httpOnly: true,
            sameSite: "strict",
            secure: deps.secureCookies,
            maxAge: SECOND_STEP_TTL_MS / 1000,
          },
        },
      };
    },

    async refuseWithoutSecondStep(user) {
      if (await needed(user)) throw signInRequired();
    },

    async endPending(tx, userId) {
      await createSecondFactorRepository(tx).deletePendingSignIns(userId);
    },
  };
  return gate;
}
