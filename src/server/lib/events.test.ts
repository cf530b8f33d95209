import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client";
import { openTestDatabase } from "../testing/test-database";
import { createEvents } from "./events";

/**
 * The events a feature publishes reach their subscribers inside the publishing transaction,
 * and after it commits, once per distinct event; a change that rolls back delivers nothing
 * after, and what the subscribers wrote in it rolls back with it.
 */
describe("in-process events", () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`create table event_probe (course_id text not null)`);
  });

  afterAll(async () => {
    await database?.close();
  });

  const probed = async () =>
    (
      (await database.db.execute(sql`select course_id from event_probe order by 1`)) as unknown as {
        rows: { course_id: string }[];
      }
    ).rows.map((r) => r.course_id);

  it("delivers in the transaction, then once after commit for each distinct event", async () => {
    const events = createEvents();
    const after: string[] = [];
    events.subscribe("course.rules-changed", {
      inTransaction: async (tx, { courseId }) => {
        await tx.execute(sql`insert into event_probe values (${courseId})`);
      },
      afterCommit: async ({ courseId }) => {
        after.push(courseId);
      },
    });
    await events.transaction(database.db, async (_tx, publish) => {
      await publish("course.rules-changed", { courseId: "a" });
      await publish("course.rules-changed", { courseId: "a" });
      await publish("course.rules-changed", { courseId: "b" });
      expect(after).toEqual([]);
    });
    expect(await probed()).toEqual(["a", "a", "b"]);
    expect(after).toEqual(["a", "b"]);
  });

  it("delivers nothing after a change that rolls back, and undoes what subscribers wrote", async () => {
    const events = createEvents();
    const after: string[] = [];
    events.subscribe("course.rules-changed", {
      inTransaction: async (tx, { courseId }) => {
        await tx.execute(sql`insert into event_probe values (${courseId})`);
      },
      afterCommit: async ({ courseId }) => {
        after.push(courseId);
      },
    });
    const refused = events.transaction(database.db, async (_tx, publish) => {
      await publish("course.rules-changed", { courseId: "c" });
      throw new Error("refused");
    });
    await expect(refused).rejects.toThrow("refused");
    expect(after).toEqual([]);
    expect(await probed()).not.toContain("c");
  });

  it("lets a subscriber refuse the change by throwing inside it", async () => {
    const events = createEvents();
    events.subscribe("course.publishing", {
      inTransaction: async () => {
        throw new Error("cannot draw the exam");
      },
    });
    const publishing = events.transaction(database.db, async (tx, publish) => {
      await tx.execute(sql`insert into event_probe values ('d')`);
      await publish("course.publishing", { courseId: "d" });
    });
    await expect(publishing).rejects.toThrow("cannot draw the exam");
    expect(await probed()).not.toContain("d");
  });
});
