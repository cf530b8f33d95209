import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../contract";
import { buildLearner } from "../../testing/factories";
import { quickLearner } from "../../testing/learning";
import { useLoopback } from "../../testing/loopback";
import { type TestContext, useTestApp } from "../../testing/test-app";
import { RESET_MAILS_PER_HOUR } from "./password-reset";

/** Everyone in one training room shares this address (a real socket bound to it). */
const ROOM = "127.0.0.77";

function mailsTo(ctx: TestContext, email: string): number {
  const dir = join(ctx.dataDir, "outbox");
  return existsSync(dir)
    ? readdirSync(dir).filter((name) => name.endsWith(`-${email}.eml`)).length
    : 0;
}

describe("a class behind one address", () => {
  const ctx = useTestApp({ PASSWORD_SETUP_MODE: "open" });
  const send = useLoopback(ctx);
  const post = (url: string, payload: object, address = ROOM) =>
    send(address, { method: "POST", url, payload });

  it("sets up 100 passwords from one address; one email is still limited on its own", async () => {
    const learners = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        buildLearner(ctx, { password: null, name: `Learner ${i}` }),
      ),
    );
    // The whole class at once, as at the start of a session in the room.
    await Promise.all(
      learners.map(async (learner) => {
        const checked = await post("/api/auth/check-email", { email: learner.email });
        expect(checked.statusCode).toBe(200);
        const setup = await post("/api/auth/setup-password", {
          email: learner.email,
          password: "class-room-pass-1",
          name: learner.name,
        });
        expect(setup.statusCode, learner.email).toBe(200);
      }),
    );
    // Hammering one account's set-up is refused, from any address.
    const target = await quickLearner(ctx);
    const body = { email: target.email, password: "valid-password-1", name: "Someone" };
    for (let i = 0; i < 10; i++) {
      const attempt = await post("/api/auth/setup-password", body, `127.0.1.${i + 1}`);
      expect(attempt.statusCode).toBe(409);
    }
    const refused = await post("/api/auth/setup-password", body, "127.0.1.50");
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ message: string }>().message).toBe(MESSAGES.tooManyAttempts);
  });

  it("lets colleagues request resets, and still sends one from Profile afterwards", async () => {
    const colleagues = await Promise.all(Array.from({ length: 25 }, () => quickLearner(ctx)));
    for (const colleague of colleagues) {
      expect((await post("/api/auth/reset-password", { email: colleague.email })).statusCode).toBe(
        200,
      );
    }
    const me = await quickLearner(ctx);
    const mine = await post("/api/auth/reset-password", { email: me.email });
    expect(mine.statusCode).toBe(200);
    // Requests are worked through in order: my mail arriving means every colleague's did.
    await expect.poll(() => mailsTo(ctx, me.email)).toBe(1);
    for (const colleague of colleagues) expect(mailsTo(ctx, colleague.email)).toBe(1);
  });

  it("sends one mailbox at most three reset mails an hour, answering as for an unknown email", async () => {
    const victim = await quickLearner(ctx);
    const unknown = await post("/api/auth/reset-password", { email: "nobody@example.com" });
    for (let i = 0; i < 5; i++) {
      const response = await post(
        "/api/auth/reset-password",
        { email: victim.email },
        `127.0.1.${i + 20}`,
      );
      expect(response.statusCode).toBe(unknown.statusCode);
      expect(response.body).toBe(unknown.body);
    }
    const witness = await quickLearner(ctx);
    await post("/api/auth/reset-password", { email: witness.email });
    await expect.poll(() => mailsTo(ctx, witness.email)).toBe(1);
    expect(mailsTo(ctx, victim.email)).toBe(RESET_MAILS_PER_HOUR);
  });
});
