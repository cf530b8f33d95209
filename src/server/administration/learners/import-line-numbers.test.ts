import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { LearnerImportPreview, LearnerImportRow } from "../../../contract";
import { users } from "../../people/auth/auth.table";
import { call, quickAdmin, signInAs } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

/**
 * docs/learners.md: the preview checks every row; the browser then sends the valid rows, with
 * the line the preview gave each (`line`), in batches to POST /api/users/learners/import, and
 * the server checks them again. A row's line is the physical line it ends on, so a file of a
 * few thousand learners whose cells span lines (a notes column exported from a CRM, an
 * address) or with blank lines between its rows gives lines past 10,001, which the commit's
 * schema refuses: the whole batch is answered 400, and the web client stops there, leaving
 * the rest of the file "Not imported".
 */
describe("learners import: rows past line 10,001 of a file within the limits", () => {
  const ctx = useTestApp();

  async function learnerCount() {
    const [row] = await ctx.database.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.role, "learner"));
    return row!.n;
  }

  async function previewThenCommit(cookie: string, csv: string) {
    const preview = await call(ctx, "POST", "/api/users/learners/import/preview", {
      cookie,
      payload: { csv },
    });
    expect(preview.statusCode).toBe(200);
    const result = preview.json() as LearnerImportPreview;
    const rows: LearnerImportRow[] = result.rows
      .filter((row) => row.errors.length === 0)
      .map((row) => ({
        line: row.line,
        name: row.name,
        email: row.email,
        phone: row.phone,
        courseIds: row.courses.map((c) => c.id),
      }));
    return { result, rows };
  }

  it("imports the valid rows the preview placed past line 10,001 (3,400 learners with 3-line notes)", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const lines = ["name,email,notes"];
    for (let n = 1; n <= 3_400; n++) {
      lines.push(
        `Learner ${n},learner${n}@example.com,"Joined in spring\nPrefers mornings\nTeam ${n % 7}"`,
      );
    }
    const { result, rows } = await previewThenCommit(cookie, `${lines.join("\n")}\n`);
    // Well inside the documented limits (10,000 rows, 2 MB), every row valid.
    expect(result.valid).toBe(3_400);
    expect(result.invalid).toBe(0);
    const last = rows.at(-1)!;
    expect(last.line).toBeGreaterThan(10_001);

    // The browser's last batch (LEARNER_IMPORT_BATCH = 250 rows).
    const batch = rows.slice(-250);
    const committed = await call(ctx, "POST", "/api/users/learners/import", {
      cookie,
      payload: { rows: batch },
    });
    expect(committed.statusCode, committed.body).toBe(200);
    expect(await learnerCount()).toBe(250);
  });

  it("imports a valid row that follows blank lines", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const csv = `name,email\nAda Lovelace,ada@example.com\n${"\n".repeat(10_000)}Grace Hopper,grace@example.com\n`;
    const { result, rows } = await previewThenCommit(cookie, csv);
    expect(result.valid).toBe(2);
    const committed = await call(ctx, "POST", "/api/users/learners/import", {
      cookie,
      payload: { rows },
    });
    expect(committed.statusCode, committed.body).toBe(200);
    expect(await learnerCount()).toBe(2);
  });
});
