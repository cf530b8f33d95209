import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { LearnerSummary } from "../../../contract";
import { call, quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { anotherInstance, useTestApp } from "../../testing/test-app";
import { createLearnerSearch } from "./learner-search";
import { createLearnersRepository } from "./learners.repository";

/**
 * The Learners page search answers from the in-memory index (learner-search-index.ts), and
 * PostgreSQL checks its candidates. These tests hold it to PostgreSQL's own search (the
 * repository's ILIKE statement) on the database the suite runs on: PGlite, the embedded
 * server or PostgreSQL, whose case folding differs for letters outside ASCII.
 */
describe("learner search", () => {
  const ctx = useTestApp();

  /**
   * 60 learners with names and emails sharing pieces, accented and upper-case letters, and a
   * run of 12 registered in one instant (an import).
   */
  async function fill() {
    await ctx.database.db.execute(sql`
      insert into users (id, name, email, role, status, is_registered_by_admin, password_setup, created_at)
      select 'learner-' || n,
        (array['Ada', 'ZOË', 'José', 'Grace', 'Łukasz', 'Mary-Ann'])[1 + n % 6] || ' ' ||
          (array['Lovelace', 'MÜLLER', 'Hopper', 'Ørsted', 'O''Brien'])[1 + n % 5] || ' ' || n,
        'person' || n || '@' || (array['Example.org', 'ada.example', 'bletchley.uk'])[1 + n % 3],
        'learner', 'active', true, true,
        case when n <= 12 then timestamptz '2026-01-01'
          else timestamptz '2026-01-01' + n * interval '1 second' end
      from generate_series(1, 60) as n`);
  }

  /** Every learner the API lists for `q`, following the cursor `limit` at a time. */
  async function listed(cookie: string, q: string, limit: number) {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const params = new URLSearchParams({ limit: String(limit), q });
      if (cursor) params.set("cursor", cursor);
      const response = await call(ctx, "GET", `/api/users/learners?${params}`, { cookie });
      expect(response.statusCode, q).toBe(200);
      ids.push(...(response.json() as LearnerSummary[]).map((l) => l.id));
      cursor = response.headers["x-next-cursor"] as string | undefined;
    } while (cursor);
    return ids;
  }

  /** PostgreSQL's own search of the learners, in list order (at most 101). */
  async function searchedByDatabase(q: string) {
    const rows = await createLearnersRepository(ctx.database.db).page({ limit: 101, q });
    return rows.map((row) => row.id);
  }

  it("finds the same learners as the database's search, by any part of name or email, any case", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    await fill();
    const terms = [
      ...["ada", "ADA", "lovelace", "LoveLace", "hopper 1", "o'brien", "mary-ann", "y-a"],
      ...["person7@", "PERSON1", "example.org", "EXAMPLE", ".uk", "n4", "2", "e"],
      ...["zoë", "ZOË", "Zoë", "josé", "JOSÉ", "müller", "Müller", "ørsted", "ØRSTED", "łukasz"],
      ...["50%", "_", "nobody"],
    ];
    for (const q of terms) {
      const expected = await searchedByDatabase(q);
      expect(await listed(cookie, q, 7), q).toEqual(expected);
      expect(await listed(cookie, q, 25), q).toEqual(expected);
    }
    // Spelled as typed, the way every database folds it.
    expect(await listed(cookie, "ZOË", 25)).toHaveLength(10);
    expect(await listed(cookie, "lovelace", 25)).toHaveLength(12);
  });

  it("finds a learner who joined, changed or left since the last search, in every instance", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    await fill();
    // 10 named Ada and 20 at ada.example.
    expect(await listed(cookie, "ada", 25)).toHaveLength(30);
    const other = await anotherInstance(ctx);
    try {
      // Joined, through the other instance's registration.
      const joined = await other.inject({
        method: "POST",
        url: "/api/auth/register",
        headers: { cookie },
        payload: { name: "Hedy Lamarr", email: "hedy@example.org" },
      });
      expect(joined.statusCode).toBe(201);
      expect(await listed(cookie, "lamarr", 25)).toEqual([joined.json().id]);

      // Changed their name, in the other instance.
      const learner = await quickLearner(ctx, { name: "Katherine Johnson", email: "kj@nasa.gov" });
      expect(await listed(cookie, "katherine", 25)).toEqual([learner.id]);
      const learnerCookie = await signInAs(ctx, learner);
      const renamed = await other.inject({
        method: "PUT",
        url: "/api/auth/profile",
        headers: { cookie: learnerCookie },
        payload: { name: "Dorothy Vaughan" },
      });
      expect(renamed.statusCode).toBe(200);
      expect(await listed(cookie, "katherine", 25)).toEqual([]);
      expect(await listed(cookie, "VAUGHAN", 25)).toEqual([learner.id]);

      // Left: deleted by an administrator of the other instance.
      const deleted = await other.inject({
        method: "DELETE",
        url: `/api/users/learners/${learner.id}`,
        headers: { cookie },
      });
      expect(deleted.statusCode).toBe(200);
      expect(await listed(cookie, "vaughan", 25)).toEqual([]);

      // Changed behind the portal's back (a script, another instance's database session).
      await ctx.database.db.execute(
        sql`update users set email = 'grace.hopper@navy.mil' where id = 'learner-3'`,
      );
      expect(await listed(cookie, "navy.mil", 25)).toEqual(["learner-3"]);
    } finally {
      await other.close();
    }
  });

  it("builds itself again when many learners arrive at once", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    await fill();
    expect(await listed(cookie, "imported", 25)).toEqual([]);
    await ctx.database.db.execute(sql`
      insert into users (id, name, email, role, status, is_registered_by_admin, password_setup, created_at)
      select 'imported-' || n, 'Imported Learner ' || n, 'imported' || n || '@example.org',
        'learner', 'active', true, false, now()
      from generate_series(1, 1500) as n`);
    expect(await listed(cookie, "imported learner 1499", 25)).toEqual(["imported-1499"]);
    expect(await listed(cookie, "IMPORTED1", 100)).toHaveLength(1 + 10 + 100 + 501);
  });

  it("answers from the index once built, PostgreSQL meanwhile, and leaves a term it cannot answer to PostgreSQL", async () => {
    await fill();
    const search = createLearnerSearch({
      source: createLearnersRepository(ctx.database.db),
      changes: ctx.database.changes,
    });
    // No search waits for the build: the one that starts it and those after are PostgreSQL's.
    expect(await search.window("lovelace", 26)).toBeUndefined();
    expect(await search.window("lovelace", 26)).toBeUndefined();
    await search.prepare();
    const window = await search.window("lovelace", 26);
    expect(window?.ids).toHaveLength(12);
    expect(window?.expected).toBe(12);
    expect((await search.window("hopper", 26))?.ids).toHaveLength(12);
    expect(await search.window("a\u0000b", 26)).toBeUndefined();
  });

  it("is built at start in the background, PostgreSQL answering until it is", async () => {
    await fill();
    const search = createLearnerSearch({
      source: createLearnersRepository(ctx.database.db),
      changes: ctx.database.changes,
    });
    const built = search.prepare();
    expect(await search.window("lovelace", 26)).toBeUndefined();
    await built;
    expect((await search.window("lovelace", 26))?.ids).toHaveLength(12);
  });

  it("leaves a portal with more learners than it holds to PostgreSQL, and counts them again later", async () => {
    await fill();
    let clock = Date.parse("2026-06-01T09:00:00Z");
    const search = createLearnerSearch({
      source: createLearnersRepository(ctx.database.db),
      changes: ctx.database.changes,
      most: 50,
      now: () => clock,
    });
    expect(await search.window("lovelace", 26)).toBeUndefined();
    await ctx.database.db.execute(sql`delete from users where id in ('learner-59', 'learner-60')`);
    await ctx.database.changes.sync();
    expect(await search.window("lovelace", 26)).toBeUndefined();
    await ctx.database.db.execute(sql`delete from users where id like 'learner-4_'`);
    await ctx.database.changes.sync();
    // Still too many a minute later; counted again after a quarter of an hour.
    clock += 60_000;
    expect(await search.window("lovelace", 26)).toBeUndefined();
    clock += 15 * 60_000;
    expect(await search.window("lovelace", 26)).toBeUndefined();
    await search.prepare();
    expect((await search.window("lovelace", 26))?.ids).toHaveLength(9);
  });
});
