import { describe, expect, it } from "vitest";
import type { ActiveSessions } from "../../../contract";
import { buildLearner, signIn } from "../../testing/factories";
import { call } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

describe("a user's own sessions", () => {
  const ctx = useTestApp();

  const listed = async (cookie: string) => {
    const response = await call(ctx, "GET", "/api/auth/sessions", { cookie });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as ActiveSessions).sessions;
  };
  const me = async (cookie: string) =>
    (await call(ctx, "GET", "/api/auth/me", { cookie })).statusCode;

  it("lists each browser signed in, the newest first, and ends one from another", async () => {
    const learner = await buildLearner(ctx);
    const laptop = await signIn(ctx, learner);
    const phone = await signIn(ctx, learner);
    const sessions = await listed(phone);
    expect(sessions).toHaveLength(2);
    expect(sessions.map((s) => s.current)).toEqual([true, false]);
    expect(sessions[0]).toMatchObject({ persistent: false, ip: expect.any(String) });
    // Nothing of the cookie or its hash is shown: a handle names each session.
    for (const s of sessions) expect(s.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(JSON.stringify(sessions)).not.toContain(laptop.split("=")[1]!.split(";")[0]!);

    const ended = await call(ctx, "DELETE", `/api/auth/sessions/${sessions[1]!.id}`, {
      cookie: phone,
    });
    expect(ended.statusCode, ended.body).toBe(204);
    expect(await me(laptop)).toBe(401);
    expect(await me(phone)).toBe(200);
    expect((await listed(phone)).map((s) => s.current)).toEqual([true]);
  });

  it("refuses to end the current session, an ended one, or another user's", async () => {
    const learner = await buildLearner(ctx);
    const mine = await signIn(ctx, learner);
    const [current] = await listed(mine);
    const own = await call(ctx, "DELETE", `/api/auth/sessions/${current!.id}`, { cookie: mine });
    expect([own.statusCode, own.json().code]).toEqual([409, "auth.session_current"]);

    const other = await buildLearner(ctx);
    const theirs = await signIn(ctx, other);
    const [their] = await listed(theirs);
    const foreign = await call(ctx, "DELETE", `/api/auth/sessions/${their!.id}`, { cookie: mine });
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, "auth.session_not_found"]);
    expect(await me(theirs)).toBe(200);
    const unknown = await call(ctx, "DELETE", `/api/auth/sessions/${"A".repeat(22)}`, {
      cookie: mine,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await call(ctx, "DELETE", "/api/auth/sessions/not-a-handle", {
      cookie: mine,
    });
    expect(malformed.statusCode).toBe(400);
    expect((await call(ctx, "GET", "/api/auth/sessions")).statusCode).toBe(401);
  });

  it("ends every other session at once, keeping this one", async () => {
    const learner = await buildLearner(ctx);
    const others = [await signIn(ctx, learner), await signIn(ctx, learner)];
    const kept = await signIn(ctx, learner);
    const response = await call(ctx, "POST", "/api/auth/sessions/end-others", { cookie: kept });
    expect(response.json()).toEqual({ ended: 2 });
    for (const cookie of others) expect(await me(cookie)).toBe(401);
    expect(await me(kept)).toBe(200);
    expect(await listed(kept)).toHaveLength(1);
  });
});
