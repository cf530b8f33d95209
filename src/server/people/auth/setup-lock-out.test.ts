import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildLearner } from "../../testing/factories";
import { userById } from "../../testing/inspect";
import { useTestApp } from "../../testing/test-app";
import { createAuthRepository } from "./auth.repository";
import { hashSecret, newSecret } from "./tokens";

/**
 * Nobody can spend a learner's way to their first password: a stranger's guesses at the
 * invitation, reset requests or look-ups of the learner's email leave the learner's own
 * set-up, invitation and Verify working.
 */
describe("a learner's first password, while a stranger targets their email", () => {
  const ctx = useTestApp({ PASSWORD_SETUP_MODE: "invite" });

  it("lets the holder of a valid invitation set a password after a stranger's 10 junk attempts", async () => {
    const learner = await buildLearner(ctx, { password: null });
    const token = newSecret();
    await createAuthRepository(ctx.database.db).insertToken({
      tokenHash: hashSecret(token),
      userId: learner.id,
      kind: "invite",
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    });
    // A stranger's ten guesses, from ten addresses (no address reaches its own limit).
    for (let i = 0; i < 10; i++) {
      const junk = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/setup-password",
        payload: {
          email: learner.email,
          password: "attacker-pw",
          name: "X",
          inviteToken: `junk-${i}`,
        },
        remoteAddress: `10.66.0.${i + 1}`,
      });
      expect(junk.statusCode).toBe(403);
    }
    // The learner, from their own address, with the link from their mailbox.
    const mine = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/setup-password",
      payload: {
        email: learner.email,
        password: "my-own-password",
        name: "Me",
        inviteToken: token,
      },
      remoteAddress: "10.77.0.1",
    });
    expect(mine.statusCode).toBe(200);
    expect((await userById(ctx, learner.id))?.passwordSetup).toBe(true);
  });
  it("sends a learner a fresh invitation they ask for, after a stranger's reset requests for their email", async () => {
    const learner = await buildLearner(ctx, { password: null });
    const invitations = () => {
      const dir = join(ctx.dataDir, "outbox");
      return existsSync(dir)
        ? readdirSync(dir).filter((name) => name.endsWith(`-${learner.email}.eml`)).length
        : 0;
    };
    // A stranger's five reset requests (nothing is mailed: the learner has no password yet).
    for (let i = 0; i < 5; i++) {
      const junk = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        payload: { email: learner.email },
        remoteAddress: `10.67.0.${i + 1}`,
      });
      expect(junk.statusCode).toBe(200);
    }
    // The learner's Verify in invite mode asks for a fresh invitation, as the web client does.
    const mine = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/resend-invitation",
      payload: { email: learner.email },
      remoteAddress: "10.78.0.1",
    });
    expect(mine.statusCode).toBe(200);
    await expect.poll(invitations).toBe(1);
  });

  it("answers the learner's own Verify (check-email) after a stranger's 30 probes of their email", async () => {
    const learner = await buildLearner(ctx, { password: null });
    for (let i = 0; i < 30; i++) {
      const probe = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/check-email",
        payload: { email: learner.email },
        remoteAddress: "10.68.0.1",
      });
      expect(probe.statusCode).toBe(200);
    }
    const mine = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/check-email",
      payload: { email: learner.email },
      remoteAddress: "10.79.0.1",
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ isRegistered: true });
  });
});
