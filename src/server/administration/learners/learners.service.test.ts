import { asc, desc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type LearnerSummary, NEXT_CURSOR_HEADER } from "../../../contract";
import { courses } from "../../catalogue/courses/courses.table";
import { enrollments } from "../../learning/enrollments/enrollments.table";
import { toUser } from "../../people/auth/auth.mapper";
import { users } from "../../people/auth/auth.table";
import { HOSTILE_STRINGS } from "../../security/hostile-strings";
import { allKeys } from "../../testing/inspect";
import { call, quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

/**
 * The Learners page JSON is built by PostgreSQL and sent without the zod serializer
 * (learners.repository.ts). These tests hold it to a reference built in JS, byte for byte:
 * toUser() of each row, figures computed in JS, courses in enrollment order, JSON.stringify.
 */
describe("learners page JSON (PostgreSQL-built)", () => {
  const ctx = useTestApp();

  /** The previous implementation's answer for every learner, newest first. */
  async function reference(): Promise<LearnerSummary[]> {
    const { db } = ctx.database;
    const rows = await db
      .select()
      .from(users)
      .where(eq(users.role, "learner"))
      .orderBy(desc(users.createdAt), desc(users.id));
    const enrolled = await db
      .select({
        userId: enrollments.userId,
        enrollmentId: enrollments.id,
        courseId: enrollments.courseId,
        title: courses.title,
        progress: enrollments.progress,
        isCompleted: enrollments.isCompleted,
      })
      .from(enrollments)
      .innerJoin(courses, eq(courses.id, enrollments.courseId))
      .orderBy(asc(enrollments.createdAt), asc(enrollments.id));
    return rows.map((user) => {
      const mine = enrolled.filter((e) => e.userId === user.id);
      const total = mine.reduce((sum, e) => sum + e.progress, 0);
      return {
        ...toUser(user),
        enrolledCount: mine.length,
        inProgressCount: mine.filter((e) => !e.isCompleted && e.progress > 0).length,
        completedCount: mine.filter((e) => e.isCompleted).length,
        averageProgress: mine.length ? Math.round(total / mine.length) : 0,
        courses: mine.map(({ userId: _userId, ...course }) => course),
        createdBySignOn: null,
      };
    });
  }

  async function adminCookie() {
    return signInAs(ctx, await quickAdmin(ctx));
  }

  async function buildCourse(title: string) {
    const [course] = await ctx.database.db
      .insert(courses)
      .values({ title, description: "d", category: "Design", duration: 1 })
      .returning();
    return course!;
  }

  async function enroll(
    userId: string,
    courseId: string,
    progress: number,
    options: { isCompleted?: boolean; createdAt?: Date; id?: string } = {},
  ) {
    await ctx.database.db.insert(enrollments).values({
      userId,
      courseId,
      progress,
      isCompleted: options.isCompleted ?? progress === 100,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
      ...(options.id ? { id: options.id } : {}),
    });
  }

  /** Every page of `limit`, following the cursor header; the raw responses. */
  async function pages(cookie: string, limit: number, q?: string) {
    const out = [];
    let cursor: string | undefined;
    do {
      const params = new URLSearchParams({ limit: String(limit) });
      if (cursor) params.set("cursor", cursor);
      if (q !== undefined) params.set("q", q);
      const response = await call(ctx, "GET", `/api/users/learners?${params}`, { cookie });
      expect(response.statusCode, response.body).toBe(200);
      out.push(response);
      cursor = response.headers[NEXT_CURSOR_HEADER] as string | undefined;
      expect(out.length).toBeLessThan(200);
    } while (cursor);
    return out;
  }

  /** Learners with every kind of field value and figure the page can show. */
  async function varied() {
    const base = Date.UTC(2026, 0, 1);
    const at = (seconds: number) => new Date(base + seconds * 1000);
    const plain = await quickLearner(ctx, { name: "Plain", createdAt: at(1) });
    const hostile = await quickLearner(ctx, {
      name: `${HOSTILE_STRINGS.quotes} ${HOSTILE_STRINGS.moodle} \u0001\u001f\t\n\r\b\f\u007f \u2028\u2029 Zoë 😀`,
      email: `o'brien+"x"\\@example.com`,
      phone: HOSTILE_STRINGS.script,
      firebaseUid: "firebase-uid-1",
      status: "restricted",
      createdAt: at(2),
    });
    const invited = await quickLearner(ctx, {
      name: "Invited",
      password: null,
      isRegisteredByAdmin: false,
      phone: null,
      createdAt: at(3),
    });
    const none = await quickLearner(ctx, { name: "No courses", createdAt: at(4) });
    const c1 = await buildCourse('Course "one" \\ </script> 碁');
    const c2 = await buildCourse("Two");
    const c3 = await buildCourse("Three");
    const c4 = await buildCourse("Four");
    // 0 (not started), 100 (completed), 33 and 50 (in progress): average round(45.75) = 46.
    await enroll(plain.id, c1.id, 0, { createdAt: at(10) });
    await enroll(plain.id, c2.id, 100, { createdAt: at(11) });
    await enroll(plain.id, c3.id, 33, { createdAt: at(12) });
    await enroll(plain.id, c4.id, 50, { createdAt: at(13) });
    // 33 and 0: average 16.5 rounds up to 17 in both JS and SQL; enrolled in the same instant,
    // ordered by id.
    await enroll(hostile.id, c2.id, 0, { createdAt: at(20), id: "enr-b" });
    await enroll(hostile.id, c1.id, 33, { createdAt: at(20), id: "enr-a" });
    // 100 without the completion flag counts as in progress, not completed.
    await enroll(invited.id, c3.id, 100, { isCompleted: false, createdAt: at(30) });
    await enroll(invited.id, c4.id, 1, { createdAt: at(31) });
    return { plain, hostile, invited, none };
  }

  it("answers the reference JSON byte for byte, as application/json", async () => {
    const cookie = await adminCookie();
    await varied();
    const expected = await reference();
    expect(expected.map((l) => l.name)).toHaveLength(4);
    const [response] = await pages(cookie, 25);
    expect(response!.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response!.body).toBe(JSON.stringify(expected));
    expect(response!.json()).toEqual(expected);
    const [none, invited, hostile, plain] = expected;
    expect(none).toMatchObject({ enrolledCount: 0, averageProgress: 0, courses: [] });
    expect(plain).toMatchObject({
      enrolledCount: 4,
      inProgressCount: 2,
      completedCount: 1,
      averageProgress: 46,
    });
    expect(hostile).toMatchObject({
      status: "restricted",
      firebaseUid: "firebase-uid-1",
      averageProgress: 17,
      inProgressCount: 1,
      completedCount: 0,
    });
    expect(hostile!.courses.map((c) => c.enrollmentId)).toEqual(["enr-a", "enr-b"]);
    expect(invited).toMatchObject({
      phone: null,
      passwordSetup: false,
      isRegisteredByAdmin: false,
      enrolledCount: 2,
      inProgressCount: 2,
      completedCount: 0,
      averageProgress: 51,
    });
  });

  it("gives createdAt in milliseconds, truncated like a JS Date, from microsecond times", async () => {
    const cookie = await adminCookie();
    await ctx.database.db.execute(sql`
      insert into users (id, name, email, role, status, is_registered_by_admin, created_at)
      values
        ('t1', 'T1', 't1@example.com', 'learner', 'active', true, timestamptz '2026-03-01 12:00:00.123999+00'),
        ('t2', 'T2', 't2@example.com', 'learner', 'active', true, timestamptz '2026-03-01 12:00:59.999999+00'),
        ('t3', 'T3', 't3@example.com', 'learner', 'active', true, timestamptz '2026-03-01 13:00:00+00')`);
    const [response] = await pages(cookie, 25);
    const items = response!.json() as LearnerSummary[];
    expect(items.map((l) => l.createdAt)).toEqual([
      "2026-03-01T13:00:00.000Z",
      "2026-03-01T12:00:59.999Z",
      "2026-03-01T12:00:00.123Z",
    ]);
    expect(response!.body).toBe(JSON.stringify(await reference()));
  });

  it("pages every learner exactly once at every page size, each page the reference's slice", async () => {
    const cookie = await adminCookie();
    await varied();
    // Ties: 6 learners in one instant (one statement), and 5 a microsecond apart.
    await ctx.database.db.execute(sql`
      insert into users (id, name, email, role, status, is_registered_by_admin, created_at)
      select 'bulk-' || n, 'Bulk ' || n, 'bulk' || n || '@example.com', 'learner', 'active', true,
        timestamptz '2026-02-01 00:00:00.5+00'
      from generate_series(1, 6) as n`);
    await ctx.database.db.execute(sql`
      insert into users (id, name, email, role, status, is_registered_by_admin, created_at)
      select 'micro-' || n, 'Micro ' || n, 'micro' || n || '@example.com', 'learner', 'active', true,
        timestamptz '2026-02-01 00:00:00.123+00' + n * interval '1 microsecond'
      from generate_series(1, 5) as n`);
    const expected = await reference();
    expect(expected).toHaveLength(15);
    for (const limit of [1, 2, 4, 7, 15, 100]) {
      const answered = await pages(cookie, limit);
      expect(answered).toHaveLength(Math.max(1, Math.ceil(expected.length / limit)));
      answered.forEach((response, i) => {
        expect(response.body, `limit ${limit}, page ${i}`).toBe(
          JSON.stringify(expected.slice(i * limit, (i + 1) * limit)),
        );
      });
      // The last page has no cursor; every other page has one.
      expect(answered.at(-1)!.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
    }
  });

  it("answers searches with the reference's matching learners, wildcards taken literally", async () => {
    const cookie = await adminCookie();
    await varied();
    await quickLearner(ctx, { name: "Top 50% Learner", email: "top@example.com" });
    await quickLearner(ctx, { name: "snake_case", email: "snake@example.com" });
    await quickLearner(ctx, { name: "snakeXcase", email: "x@example.com" });
    const expected = await reference();
    const matching = (test: (l: LearnerSummary) => boolean) =>
      JSON.stringify(expected.filter(test));
    const bodies = async (q: string, limit = 25) =>
      (await pages(cookie, limit, q)).map((r) => r.body);
    expect(await bodies("50%")).toEqual([matching((l) => l.name.includes("50%"))]);
    expect(await bodies("_")).toEqual([matching((l) => l.name.includes("_"))]);
    expect(await bodies("\\")).toEqual([matching((l) => l.email.includes("\\"))]);
    expect(await bodies("O'BRIEN")).toEqual([matching((l) => l.email.startsWith("o'brien"))]);
    expect(await bodies("nothing-matches")).toEqual(["[]"]);
    // Matching everyone, in pages of 2: the same answer as without a search.
    const all = await bodies("example.com", 2);
    expect(all.flatMap((b) => JSON.parse(b) as LearnerSummary[])).toEqual(expected);
  });

  it("never sends a password hash, session data or a column the contract does not name", async () => {
    const cookie = await adminCookie();
    const { plain } = await varied();
    await signInAs(ctx, plain);
    const [response] = await pages(cookie, 25);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, plain.id));
    expect(row!.passwordHash).toBeTruthy();
    expect(response!.body).not.toContain(row!.passwordHash!);
    expect(response!.body).not.toMatch(/password_?hash|scrypt|session|updated_?at/i);
    const learnerKeys = [
      "id",
      "name",
      "email",
      "phone",
      "role",
      "status",
      "createdAt",
      "firebaseUid",
      "isRegisteredByAdmin",
      "passwordSetup",
      "enrolledCount",
      "inProgressCount",
      "completedCount",
      "averageProgress",
      "courses",
      "createdBySignOn",
    ];
    const courseKeys = ["enrollmentId", "courseId", "title", "progress", "isCompleted"];
    for (const learner of response!.json() as LearnerSummary[]) {
      expect(Object.keys(learner)).toEqual(learnerKeys);
      for (const course of learner.courses) expect(Object.keys(course)).toEqual(courseKeys);
    }
    expect(new Set(allKeys(response!.json()))).toEqual(new Set([...learnerKeys, ...courseKeys]));
  });

  it("still documents the response in the OpenAPI description", async () => {
    const response = await call(ctx, "GET", "/api/docs/json");
    expect(response.statusCode).toBe(200);
    const operation = response.json().paths["/api/users/learners"].get;
    const schema = operation.responses["200"].content["application/json"].schema;
    expect(schema.type).toBe("array");
    expect(Object.keys(schema.items.properties)).toEqual(
      expect.arrayContaining(["id", "email", "enrolledCount", "averageProgress", "courses"]),
    );
    expect(Object.keys(schema.items.properties)).not.toContain("passwordHash");
  });
});
