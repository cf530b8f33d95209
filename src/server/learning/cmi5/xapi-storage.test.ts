import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startedAu, type TestAuClient } from "../../testing/cmi5";
import { expectErrorBody } from "../../testing/errors";
import { useTestApp } from "../../testing/test-app";
import { cmi5RegistrationUsage, cmi5Statements, cmi5States } from "./cmi5.table";
import {
  documentBytes,
  PROFILE_STORAGE_BYTES,
  REGISTRATION_STORAGE_BYTES,
  statementBytes,
} from "./xapi-storage";

/** Just under the 1 MB a document may be: four fit in a learner's profiles. */
const DOCUMENT = Buffer.alloc(1_000_000, "x").toString();

describe("what an AU may store", () => {
  const ctx = useTestApp();

  const usage = async (au: TestAuClient) =>
    (
      await ctx.database.db
        .select({ bytes: cmi5RegistrationUsage.bytes })
        .from(cmi5RegistrationUsage)
        .where(eq(cmi5RegistrationUsage.registration, au.registration))
    )[0]?.bytes ?? 0;

  /** The registration made to hold `bytes` more, as if its AU had stored them before. */
  const storedBefore = (au: TestAuClient, bytes: number) =>
    ctx.database.db
      .update(cmi5RegistrationUsage)
      .set({ bytes: sql`${cmi5RegistrationUsage.bytes} + ${bytes}` })
      .where(eq(cmi5RegistrationUsage.registration, au.registration));

  const putState = (au: TestAuClient, stateId: string, body: string) =>
    au.xapi("PUT", "activities/state", {
      query: au.stateQuery(stateId),
      body,
      headers: { "content-type": "text/plain" },
    });

  const refusedAsFull = (response: { statusCode: number; json(): unknown }) =>
    expect([response.statusCode, expectErrorBody(response).code]).toEqual([
      413,
      "xapi.storage_full",
    ]);

  it("counts every statement and state document the AU stores, and what it gives back", async () => {
    const { au } = await startedAu(ctx);
    const initialized = await usage(au);
    expect(initialized).toBeGreaterThan(128);

    const statement = au.statement("experienced");
    expect((await au.send(statement)).statusCode).toBe(204);
    const afterStatement = await usage(au);
    // The statement as stored, with what the LRS adds to it (stored, authority, version).
    expect(afterStatement - initialized).toBeGreaterThan(statementBytes(statement));

    expect((await putState(au, "bookmark", "page 12")).statusCode).toBe(204);
    const bookmark = documentBytes([au.activityId, "bookmark"], Buffer.from("page 12"));
    expect(await usage(au)).toBe(afterStatement + bookmark);
    expect((await putState(au, "bookmark", "page 3")).statusCode).toBe(204);
    expect(await usage(au)).toBe(afterStatement + bookmark - 1);
    const deleted = await au.xapi("DELETE", "activities/state", {
      query: au.stateQuery("bookmark"),
    });
    expect(deleted.statusCode).toBe(204);
    expect(await usage(au)).toBe(afterStatement);
  });

  it("refuses a state document that would pass the registration's bound, never one that shrinks", async () => {
    expect(REGISTRATION_STORAGE_BYTES).toBe(16 * 1024 * 1024);
    const { au } = await startedAu(ctx);
    expect((await putState(au, "notes", DOCUMENT)).statusCode).toBe(204);
    await storedBefore(au, REGISTRATION_STORAGE_BYTES - (await usage(au)) - 1_500_000);

    expect((await putState(au, "more-notes", DOCUMENT)).statusCode).toBe(204);
    const states = async () => (await ctx.database.db.select().from(cmi5States)).length;
    const held = [await states(), await usage(au)];
    refusedAsFull(await putState(au, "one-more", DOCUMENT));
    expect([await states(), await usage(au)]).toEqual(held);

    // Past the bound or not, a smaller document is taken, and what it gave back is used again.
    expect((await putState(au, "notes", "short")).statusCode).toBe(204);
    expect((await putState(au, "one-more", DOCUMENT)).statusCode).toBe(204);
  });

  it("refuses a batch of statements that would pass the bound, storing none of it", async () => {
    const { au } = await startedAu(ctx);
    await storedBefore(au, REGISTRATION_STORAGE_BYTES - (await usage(au)) - 1_500_000);
    const experienced = () =>
      au.statement("experienced", {
        result: { extensions: { "https://example.com/notes": DOCUMENT } },
      });
    const statements = async () => (await ctx.database.db.select().from(cmi5Statements)).length;
    const held = [await statements(), await usage(au)];
    refusedAsFull(await au.xapi("POST", "statements", { body: [experienced(), experienced()] }));
    expect([await statements(), await usage(au)]).toEqual(held);

    // What fits is stored: one of them, then the AU's own small statements.
    expect((await au.send(experienced())).statusCode).toBe(204);
    await au.sendOk("completed");
  });

  it("bounds a learner's agent profile documents", async () => {
    expect(PROFILE_STORAGE_BYTES).toBe(4 * 1024 * 1024);
    const { au } = await startedAu(ctx);
    const putProfile = (profileId: string, body: string) =>
      au.xapi("PUT", "agents/profile", {
        query: { profileId, agent: JSON.stringify(au.actor) },
        body,
        headers: { "content-type": "text/plain" },
      });
    for (let i = 0; i < 4; i++) {
      expect((await putProfile(`notes-${i}`, DOCUMENT)).statusCode).toBe(204);
    }
    refusedAsFull(await putProfile("notes-4", DOCUMENT));
    expect((await putProfile("notes-0", "short")).statusCode).toBe(204);
    expect((await putProfile("notes-4", DOCUMENT)).statusCode).toBe(204);
  });
});
