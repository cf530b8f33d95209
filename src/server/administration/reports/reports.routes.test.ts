import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CATEGORIES, MESSAGES, type Reports } from "../../../contract";
import { enrollments } from "../../learning/enrollments/enrollments.table";
import { users } from "../../people/auth/auth.table";
import { enroll } from "../../testing/courses";
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

const ZERO_STATS = {
  totalCourses: 0,
  activeLearners: 0,
  completions: 0,
  avgProgress: 0,
  totalLearners: 0,
  totalEnrollments: 0,
};

const emptyCategories = () =>
  CATEGORIES.map((category) => ({
    category,
    courses: 0,
    enrollments: 0,
    completions: 0,
    completionRate: 0,
    avgProgress: 0,
  }));

/** Every number in a JSON value is a finite integer (no NaN, no null in place of a figure). */
function expectWholeNumbers(value: unknown, path = "$"): void {
  if (typeof value === "number") {
    expect(Number.isInteger(value), path).toBe(true);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) expectWholeNumbers(item, `${path}[${i}]`);
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      expect(inner, `${path}.${key}`).not.toBeNull();
      expectWholeNumbers(inner, `${path}.${key}`);
    }
  }
}

describe("admin stats and reports", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  async function asAdmin() {
    const admin = await quickAdmin(ctx);
    return signInAs(ctx, admin);
  }

  async function stats(cookie: string) {
    const response = await call(ctx, "GET", "/api/admin/stats", { cookie });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toMatch(/NaN|null/);
    return response.json();
  }

  async function reports(cookie: string): Promise<Reports> {
    const response = await call(ctx, "GET", "/api/admin/reports", { cookie });
    expect(response.statusCode).toBe(200);
    // NaN as a whole value: a random id or a name may hold the letters.
    expect(response.body).not.toMatch(/[:[,]"?NaN"?[,\]}]/);
    const body = response.json() as Reports;
    expectWholeNumbers(body);
    return body;
  }

  describe("empty data sets (no division by zero)", () => {
    it("answers zeros when nothing exists but the administrator", async () => {
      const cookie = await asAdmin();
      expect(await stats(cookie)).toEqual(ZERO_STATS);
      expect(await reports(cookie)).toEqual({
        summary: {
          totalLearners: 0,
          totalEnrollments: 0,
          completions: 0,
          completionRate: 0,
          avgProgress: 0,
        },
        courses: [],
        categories: emptyCategories(),
        recentCompletions: [],
      });
    });

    it("answers zeros for courses and learners without any enrollment", async () => {
      const cookie = await asAdmin();
      const video = await videoPath(cookie);
      const course = await buildPublishedCourse(ctx, cookie, {
        video,
        title: "Lonely",
        category: "Mobile",
      });
      const draft = await buildPublishedCourse(ctx, cookie, {
        video,
        title: "Draft",
        category: "Mobile",
        draft: true,
      });
      await quickLearner(ctx, { password: null });
      await quickLearner(ctx, { password: null, status: "restricted" });
      expect(await stats(cookie)).toEqual({
        ...ZERO_STATS,
        totalCourses: 2,
        totalLearners: 2,
        activeLearners: 1,
      });
      const body = await reports(cookie);
      expect(body.summary).toEqual({
        totalLearners: 2,
        totalEnrollments: 0,
        completions: 0,
        completionRate: 0,
        avgProgress: 0,
      });
      const zero = { enrollments: 0, completions: 0, completionRate: 0, avgProgress: 0 };
      expect(body.courses).toEqual([
        { courseId: draft.id, title: "Draft", category: "Mobile", ...zero },
        { courseId: course.id, title: "Lonely", category: "Mobile", ...zero },
      ]);
      expect(body.categories).toEqual(
        emptyCategories().map((c) => (c.category === "Mobile" ? { ...c, courses: 2 } : c)),
      );
      expect(body.recentCompletions).toEqual([]);
    });

    it("answers zeros when every enrollment is at 0%", async () => {
      const cookie = await asAdmin();
      const video = await videoPath(cookie);
      const course = await buildPublishedCourse(ctx, cookie, { video, category: "Design" });
      const a = await quickLearner(ctx, { password: null });
      const b = await quickLearner(ctx, { password: null });
      await enrollViaApi(ctx, cookie, a.id, course.id);
      await enrollViaApi(ctx, cookie, b.id, course.id);
      expect(await stats(cookie)).toEqual({
        totalCourses: 1,
        activeLearners: 2,
        completions: 0,
        avgProgress: 0,
        totalLearners: 2,
        totalEnrollments: 2,
      });
      const body = await reports(cookie);
      expect(body.summary).toMatchObject({ completionRate: 0, avgProgress: 0 });
      expect(body.courses[0]).toMatchObject({ enrollments: 2, completionRate: 0, avgProgress: 0 });
      expect(body.categories.find((c) => c.category === "Design")).toEqual({
        category: "Design",
        courses: 1,
        enrollments: 2,
        completions: 0,
        completionRate: 0,
        avgProgress: 0,
      });
    });
  });

  describe("a hand-computed data set", () => {
    /**
     * Courses (modules): Dev One (2), Dev Two (3) in Development; DB One (1) in Database;
     * Mobile One (2) in Mobile, never enrolled; Design X (3), Design Y (3) and a draft in Design.
     *
     *            Dev One   Dev Two   DB One    Design X  Design Y
     *   L1       100 (c)   33        100 (c)   33
     *   L2       50        0                             67
     *   L3       0                   100 (c)   0
     *   L4                 67
     *   L5       100 (c)                                          (restricted afterwards)
     *   L6       no enrollments
     */
    async function buildDataSet() {
      const cookie = await asAdmin();
      const video = await videoPath(cookie);
      const course = (title: string, category: (typeof CATEGORIES)[number], modules: number) =>
        buildPublishedCourse(ctx, cookie, { video, title, category, modules });
      const devOne = await course("Dev One", "Development", 2);
      const devTwo = await course("Dev Two", "Development", 3);
      const dbOne = await course("DB One", "Database", 1);
      const mobileOne = await course("Mobile One", "Mobile", 2);
      const designX = await course("Design X", "Design", 3);
      const designY = await course("Design Y", "Design", 3);
      const draft = await buildPublishedCourse(ctx, cookie, {
        video,
        title: "Draft Design",
        category: "Design",
        draft: true,
      });
      type Learner = Awaited<ReturnType<typeof quickLearner>>;
      const learners: Learner[] = [];
      for (let i = 1; i <= 6; i++) {
        learners.push(await quickLearner(ctx, { name: `L${i}`, email: `l${i}@example.com` }));
      }
      const [l1, l2, l3, l4, l5] = learners as [Learner, Learner, Learner, Learner, Learner];
      const plan: [Learner, typeof devOne, number][] = [
        [l1, devOne, 2],
        [l1, devTwo, 1],
        [l1, dbOne, 1],
        [l1, designX, 1],
        [l2, devOne, 1],
        [l2, devTwo, 0],
        [l2, designY, 2],
        [l3, devOne, 0],
        [l3, dbOne, 1],
        [l3, designX, 0],
        [l4, devTwo, 2],
        [l5, devOne, 2],
      ];
      const cookies = new Map<string, string>();
      for (const [learner, c, done] of plan) {
        await enrollViaApi(ctx, cookie, learner.id, c.id);
        if (!done) continue;
        if (!cookies.has(learner.id)) cookies.set(learner.id, await signInAs(ctx, learner));
        await completeViaApi(ctx, cookies.get(learner.id)!, learner.id, c, done);
      }
      // Restricted after their work: a restricted learner still counts as a learner.
      const restricted = await call(ctx, "PATCH", `/api/users/learners/${l5.id}/restrict`, {
        cookie,
      });
      expect(restricted.json().status).toBe("restricted");
      return { cookie, devOne, devTwo, dbOne, mobileOne, designX, designY, draft };
    }

    it("computes the dashboard stats", async () => {
      const { cookie } = await buildDataSet();
      // 12 enrollments; completed: L1 Dev One, L1 DB One, L3 DB One, L5 Dev One;
      // progress sum 100+33+100+33 + 50+0+67 + 0+100+0 + 67 + 100 = 650; 650 / 12 = 54.2.
      expect(await stats(cookie)).toEqual({
        totalCourses: 7,
        activeLearners: 5,
        completions: 4,
        avgProgress: 54,
        totalLearners: 6,
        totalEnrollments: 12,
      });
    });

    it("computes the summary, per course (most enrolled first) and per category", async () => {
      const data = await buildDataSet();
      const body = await reports(data.cookie);
      expect(body.summary).toEqual({
        totalLearners: 6,
        totalEnrollments: 12,
        completions: 4,
        // 4 / 12 = 33.3%
        completionRate: 33,
        avgProgress: 54,
      });
      const row = (
        c: { id: string; title: string; category: string },
        enrollments: number,
        completions: number,
        completionRate: number,
        avgProgress: number,
      ) => ({
        courseId: c.id,
        title: c.title,
        category: c.category,
        enrollments,
        completions,
        completionRate,
        avgProgress,
      });
      expect(body.courses).toEqual([
        // (100 + 50 + 0 + 100) / 4 = 62.5
        row(data.devOne, 4, 2, 50, 63),
        // (33 + 0 + 67) / 3 = 33.3
        row(data.devTwo, 3, 0, 0, 33),
        // Ties on enrollments go by title.
        row(data.dbOne, 2, 2, 100, 100),
        // (33 + 0) / 2 = 16.5
        row(data.designX, 2, 0, 0, 17),
        row(data.designY, 1, 0, 0, 67),
        row(data.draft, 0, 0, 0, 0),
        row(data.mobileOne, 0, 0, 0, 0),
      ]);
      expect(body.categories).toEqual([
        // 7 enrollments, 2 completed (28.6%), (250 + 100) / 7 = 50
        {
          category: "Development",
          courses: 2,
          enrollments: 7,
          completions: 2,
          completionRate: 29,
          avgProgress: 50,
        },
        {
          category: "Database",
          courses: 1,
          enrollments: 2,
          completions: 2,
          completionRate: 100,
          avgProgress: 100,
        },
        {
          category: "Mobile",
          courses: 1,
          enrollments: 0,
          completions: 0,
          completionRate: 0,
          avgProgress: 0,
        },
        // Over the category's enrollments: (33 + 0 + 67) / 3 = 33.3, so 33 (averaging the
        // courses' rounded averages, (17 * 2 + 67) / 3 = 33.7, would say 34).
        {
          category: "Design",
          courses: 3,
          enrollments: 3,
          completions: 0,
          completionRate: 0,
          avgProgress: 33,
        },
      ]);
    });

    it("lists recent completions newest first, with learner and course", async () => {
      const data = await buildDataSet();
      const body = await reports(data.cookie);
      expect(
        body.recentCompletions.map((c) => [c.learnerName, c.learnerEmail, c.courseTitle]),
      ).toEqual([
        ["L5", "l5@example.com", "Dev One"],
        ["L3", "l3@example.com", "DB One"],
        ["L1", "l1@example.com", "DB One"],
        ["L1", "l1@example.com", "Dev One"],
      ]);
      const times = body.recentCompletions.map((c) => Date.parse(c.completedAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const stored = await ctx.database.db
        .select()
        .from(enrollments)
        .where(eq(enrollments.isCompleted, true));
      for (const c of body.recentCompletions) {
        const row = stored.find((e) => e.id === c.enrollmentId)!;
        expect(row.completedAt?.toISOString()).toBe(c.completedAt);
      }
    });
  });

  it("keeps only the 10 most recent completions, newest first", async () => {
    const cookie = await asAdmin();
    const video = await videoPath(cookie);
    const course = await buildPublishedCourse(ctx, cookie, { video, title: "Many" });
    const base = Date.UTC(2026, 4, 1);
    // 12 completions an hour apart, enrolled in a shuffled order; one learner in progress.
    const order = [5, 0, 11, 3, 8, 1, 10, 6, 2, 9, 4, 7];
    for (const hour of order) {
      const learner = await quickLearner(ctx, { name: `H${hour}`, password: null });
      const row = await enroll(ctx, learner.id, course.id);
      await ctx.database.db
        .update(enrollments)
        .set({ progress: 100, isCompleted: true, completedAt: new Date(base + hour * 3_600_000) })
        .where(eq(enrollments.id, row.id));
    }
    const waiting = await quickLearner(ctx, { password: null });
    await enroll(ctx, waiting.id, course.id);
    const body = await reports(cookie);
    expect(body.recentCompletions.map((c) => c.learnerName)).toEqual(
      [11, 10, 9, 8, 7, 6, 5, 4, 3, 2].map((h) => `H${h}`),
    );
    expect(body.recentCompletions[0]?.completedAt).toBe(
      new Date(base + 11 * 3_600_000).toISOString(),
    );
    expect(body.summary).toMatchObject({
      totalEnrollments: 13,
      completions: 12,
      // 12 / 13 = 92.3%; (12 * 100 + 0) / 13 = 92.3
      completionRate: 92,
      avgProgress: 92,
    });
  });

  it("rounds half up the way the spec's round() does", async () => {
    const cookie = await asAdmin();
    const video = await videoPath(cookie);
    const course = await buildPublishedCourse(ctx, cookie, { video, category: "Database" });
    const done = await quickLearner(ctx, { password: null });
    const idle = await quickLearner(ctx, { password: null });
    for (const [learner, progress] of [
      [done, 100],
      [idle, 0],
    ] as const) {
      const row = await enroll(ctx, learner.id, course.id);
      await ctx.database.db
        .update(enrollments)
        .set({ progress, isCompleted: progress === 100, completedAt: progress ? new Date() : null })
        .where(eq(enrollments.id, row.id));
    }
    // 1 of 8 completed is 12.5%, and the average is 100 / 8 = 12.5: both round up to 13.
    for (let i = 0; i < 6; i++) {
      const learner = await quickLearner(ctx, { password: null });
      await enroll(ctx, learner.id, course.id);
    }
    const body = await reports(cookie);
    expect(body.summary).toMatchObject({
      totalEnrollments: 8,
      completionRate: 13,
      avgProgress: 13,
    });
    expect(body.courses[0]).toMatchObject({ completionRate: 13, avgProgress: 13 });
    expect(body.categories[1]).toMatchObject({ completionRate: 13, avgProgress: 13 });
  });

  it("counts only learners: administrators are never learners, active or not", async () => {
    const cookie = await asAdmin();
    await quickAdmin(ctx);
    await ctx.database.db
      .update(users)
      .set({ status: "restricted" })
      .where(eq(users.role, "admin"));
    expect(await stats(cookie)).toEqual(ZERO_STATS);
  });

  describe("access", () => {
    const routes = ["/api/admin/stats", "/api/admin/reports", "/api/admin/reports/export"];

    it("refuses every report to anonymous users (401) and learners (403)", async () => {
      const learner = await quickLearner(ctx);
      const learnerCookie = await signInAs(ctx, learner);
      for (const url of routes) {
        const anonymous = await call(ctx, "GET", url);
        expect(anonymous.statusCode, url).toBe(401);
        expect(anonymous.json()).toEqual({
          message: MESSAGES.notSignedIn,
          code: "auth.not_signed_in",
        });
        const asLearner = await call(ctx, "GET", url, { cookie: learnerCookie });
        expect(asLearner.statusCode, url).toBe(403);
        expect(asLearner.json()).toEqual({ message: MESSAGES.forbidden, code: "auth.forbidden" });
        expect(asLearner.headers["content-disposition"]).toBeUndefined();
      }
    });
  });
});
