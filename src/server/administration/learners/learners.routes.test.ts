import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type LearnerSummary, MESSAGES } from "../../../contract";
import { enrollments, moduleCompletions } from "../../learning/enrollments/enrollments.table";
import { users } from "../../people/auth/auth.table";
import { expectErrorBody } from "../../testing/errors";
import { DEFAULT_PASSWORD } from "../../testing/factories";
import { countSessions, userById } from "../../testing/inspect";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  progressRows,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

describe("learners (administrators)", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  async function asAdmin() {
    const admin = await quickAdmin(ctx);
    return { admin, cookie: await signInAs(ctx, admin) };
  }

  function list(cookie: string | undefined, query = "") {
    return call(ctx, "GET", `/api/users/learners${query}`, { cookie });
  }

  async function names(cookie: string, query: string) {
    const response = await list(cookie, query);
    expect(response.statusCode).toBe(200);
    return (response.json() as LearnerSummary[]).map((l) => l.name).sort();
  }

  /** Follows x-next-cursor to the end; every page but the last is full. */
  async function allPages(cookie: string, limit: number, q?: string) {
    const pages: LearnerSummary[][] = [];
    let cursor: string | undefined;
    do {
      const params = new URLSearchParams({ limit: String(limit) });
      if (cursor) params.set("cursor", cursor);
      if (q) params.set("q", q);
      const response = await list(cookie, `?${params}`);
      expect(response.statusCode).toBe(200);
      pages.push(response.json() as LearnerSummary[]);
      cursor = response.headers["x-next-cursor"] as string | undefined;
      expect(pages.length).toBeLessThan(100);
    } while (cursor);
    return pages;
  }

  describe("GET /api/users/learners", () => {
    it("answers an empty array and no cursor when there are no learners", async () => {
      const { cookie } = await asAdmin();
      const response = await list(cookie);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
      expect(response.headers["x-next-cursor"]).toBeUndefined();
    });

    it("lists only learners, with the user fields and no secrets", async () => {
      const { cookie } = await asAdmin();
      const learner = await quickLearner(ctx, { name: "Ada Lovelace", phone: "+44 1" });
      const items = (await list(cookie)).json() as LearnerSummary[];
      expect(items).toHaveLength(1);
      const [item] = items;
      expect(item).toEqual({
        id: learner.id,
        name: "Ada Lovelace",
        email: learner.email,
        phone: "+44 1",
        role: "learner",
        status: "active",
        createdAt: learner.createdAt.toISOString(),
        firebaseUid: null,
        isRegisteredByAdmin: true,
        passwordSetup: true,
        enrolledCount: 0,
        inProgressCount: 0,
        completedCount: 0,
        averageProgress: 0,
        courses: [],
        createdBySignOn: null,
      });
    });

    it("searches name or email, case-insensitively, as a substring", async () => {
      const { cookie } = await asAdmin();
      await quickAdmin(ctx, { name: "Ada Admin", email: "ada-admin@example.com" });
      await quickLearner(ctx, {
        name: "Ada Lovelace",
        email: "countess@example.com",
        password: null,
      });
      await quickLearner(ctx, { name: "Grace Hopper", email: "grace@ada.org", password: null });
      await quickLearner(ctx, { name: "Alan Turing", email: "alan@bletchley.uk", password: null });
      expect(await names(cookie, "?q=ADA")).toEqual(["Ada Lovelace", "Grace Hopper"]);
      expect(await names(cookie, "?q=lovel")).toEqual(["Ada Lovelace"]);
      expect(await names(cookie, "?q=BLETCHLEY.UK")).toEqual(["Alan Turing"]);
      expect(await names(cookie, "?q=%20%20turing%20")).toEqual(["Alan Turing"]);
      expect(await names(cookie, "?q=nobody")).toEqual([]);
      // Blank search means no search.
      expect(await names(cookie, "?q=%20")).toHaveLength(3);
    });

    it("treats LIKE wildcards and backslashes in the search as plain characters", async () => {
      const { cookie } = await asAdmin();
      await quickLearner(ctx, {
        name: "Top 50% Learner",
        email: "top@example.com",
        password: null,
      });
      await quickLearner(ctx, {
        name: "Fifty Learner",
        email: "five0@example.com",
        password: null,
      });
      await quickLearner(ctx, { name: "snake_case", email: "snake@example.com", password: null });
      await quickLearner(ctx, { name: "snakeXcase", email: "other@example.com", password: null });
      await quickLearner(ctx, { name: "back\\slash", email: "bs@example.com", password: null });
      expect(await names(cookie, `?q=${encodeURIComponent("50%")}`)).toEqual(["Top 50% Learner"]);
      expect(await names(cookie, `?q=${encodeURIComponent("%")}`)).toEqual(["Top 50% Learner"]);
      expect(await names(cookie, "?q=e_c")).toEqual(["snake_case"]);
      expect(await names(cookie, "?q=_")).toEqual(["snake_case"]);
      expect(await names(cookie, `?q=${encodeURIComponent("k\\s")}`)).toEqual(["back\\slash"]);
    });

    it("pages 5 learners 2 at a time: 3 pages, newest first, none missed or repeated", async () => {
      const { cookie } = await asAdmin();
      const base = Date.UTC(2026, 0, 1);
      for (let i = 0; i < 5; i++) {
        await quickLearner(ctx, {
          name: `Learner ${i}`,
          createdAt: new Date(base + i * 60_000),
          password: null,
        });
      }
      const pages = await allPages(cookie, 2);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(pages.flat().map((l) => l.name)).toEqual([
        "Learner 4",
        "Learner 3",
        "Learner 2",
        "Learner 1",
        "Learner 0",
      ]);
    });

    it("pages learners created in the same instant (one statement) without a gap", async () => {
      const { cookie } = await asAdmin();
      // One INSERT: every row gets the same now(), with microseconds; ties go by id.
      await ctx.database.db.execute(sql`
        insert into users (id, name, email, role, status, is_registered_by_admin)
        select 'bulk-' || n, 'Bulk ' || n, 'bulk' || n || '@example.com', 'learner', 'active', true
        from generate_series(1, 7) as n`);
      const pages = await allPages(cookie, 2);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
      const ids = pages.flat().map((l) => l.id);
      expect(new Set(ids).size).toBe(7);
      expect(ids).toEqual([...ids].sort().reverse());
    });

    it("pages learners whose creation times differ by microseconds", async () => {
      const { cookie } = await asAdmin();
      // Distinct times inside one millisecond: a cursor that keeps only milliseconds loses rows.
      await ctx.database.db.execute(sql`
        insert into users (id, name, email, role, status, is_registered_by_admin, created_at)
        select 'micro-' || n, 'Micro ' || n, 'micro' || n || '@example.com', 'learner', 'active',
          true, timestamptz '2026-03-01 12:00:00.123' + n * interval '1 microsecond'
        from generate_series(1, 5) as n`);
      const pages = await allPages(cookie, 2);
      expect(pages.flat().map((l) => l.name)).toEqual([
        "Micro 5",
        "Micro 4",
        "Micro 3",
        "Micro 2",
        "Micro 1",
      ]);
    });

    it("pages search results with the same cursor rules", async () => {
      const { cookie } = await asAdmin();
      const base = Date.UTC(2026, 0, 1);
      for (let i = 0; i < 5; i++) {
        await quickLearner(ctx, {
          name: i % 2 ? `Odd ${i}` : `Even ${i}`,
          createdAt: new Date(base + i * 1000),
          password: null,
        });
      }
      const pages = await allPages(cookie, 2, "even");
      expect(pages.map((p) => p.map((l) => l.name))).toEqual([["Even 4", "Even 2"], ["Even 0"]]);
    });

    it("refuses a malformed cursor and out-of-range limits with 400", async () => {
      const { cookie } = await asAdmin();
      for (const query of ["?cursor=nonsense", "?limit=0", "?limit=101", "?limit=abc"]) {
        const response = await list(cookie, query);
        expect(response.statusCode, query).toBe(400);
        expectErrorBody(response, query);
      }
    });

    it("gives each learner the figures the Learners page shows, as hand-computed", async () => {
      const { cookie: adminCookie } = await asAdmin();
      const video = await videoPath(adminCookie);
      const c1 = await buildPublishedCourse(ctx, adminCookie, { video, modules: 3, title: "C1" });
      const c2 = await buildPublishedCourse(ctx, adminCookie, { video, modules: 1, title: "C2" });
      const c3 = await buildPublishedCourse(ctx, adminCookie, { video, modules: 3, title: "C3" });
      const c4 = await buildPublishedCourse(ctx, adminCookie, { video, modules: 2, title: "C4" });
      const base = Date.UTC(2026, 0, 1);
      const a = await quickLearner(ctx, { name: "A", createdAt: new Date(base + 3000) });
      const b = await quickLearner(ctx, { name: "B", createdAt: new Date(base + 2000) });
      await quickLearner(ctx, { name: "C", createdAt: new Date(base + 1000), password: null });
      const aCookie = await signInAs(ctx, a);

      const e1 = await enrollViaApi(ctx, adminCookie, a.id, c1.id);
      const e2 = await enrollViaApi(ctx, adminCookie, a.id, c2.id);
      const e3 = await enrollViaApi(ctx, adminCookie, a.id, c3.id);
      const e4 = await enrollViaApi(ctx, adminCookie, a.id, c4.id);
      const eb = await enrollViaApi(ctx, adminCookie, b.id, c2.id);
      await completeViaApi(ctx, aCookie, a.id, c2, 1); // 100, completed
      await completeViaApi(ctx, aCookie, a.id, c3, 1); // 1/3 = 33
      await completeViaApi(ctx, aCookie, a.id, c4, 1); // 1/2 = 50

      const response = await list(adminCookie);
      const [la, lb, lc] = response.json() as LearnerSummary[];
      // A: progress 0, 100, 33 and 50: 2 in progress (33, 50; 0 is not started), 1 completed,
      // average round(183 / 4) = round(45.75) = 46.
      expect(la).toMatchObject({
        name: "A",
        enrolledCount: 4,
        inProgressCount: 2,
        completedCount: 1,
        averageProgress: 46,
      });
      expect(la!.courses).toEqual([
        { enrollmentId: e1.id, courseId: c1.id, title: "C1", progress: 0, isCompleted: false },
        { enrollmentId: e2.id, courseId: c2.id, title: "C2", progress: 100, isCompleted: true },
        { enrollmentId: e3.id, courseId: c3.id, title: "C3", progress: 33, isCompleted: false },
        { enrollmentId: e4.id, courseId: c4.id, title: "C4", progress: 50, isCompleted: false },
      ]);
      // B: enrolled, not started.
      expect(lb).toMatchObject({
        name: "B",
        enrolledCount: 1,
        inProgressCount: 0,
        completedCount: 0,
        averageProgress: 0,
        courses: [
          { enrollmentId: eb.id, courseId: c2.id, title: "C2", progress: 0, isCompleted: false },
        ],
      });
      // C: no courses, no division by zero.
      expect(lc).toMatchObject({
        name: "C",
        enrolledCount: 0,
        inProgressCount: 0,
        completedCount: 0,
        averageProgress: 0,
        courses: [],
      });
    });

    it("answers a page again from memory until anything it shows changes", async () => {
      const { cookie: adminCookie } = await asAdmin();
      const video = await videoPath(adminCookie);
      const course = await buildPublishedCourse(ctx, adminCookie, {
        video,
        modules: 2,
        title: "C1",
      });
      const base = Date.UTC(2026, 0, 1);
      const a = await quickLearner(ctx, { name: "Ann", createdAt: new Date(base + 2000) });
      await quickLearner(ctx, { name: "Bob", createdAt: new Date(base + 1000) });
      await enrollViaApi(ctx, adminCookie, a.id, course.id);
      const firstPage = async () =>
        (await list(adminCookie, "?limit=2")).json() as LearnerSummary[];
      const summary = async () => (await firstPage()).map((l) => [l.name, l.averageProgress]);
      expect(await summary()).toEqual([
        ["Ann", 0],
        ["Bob", 0],
      ]);
      expect(await names(adminCookie, "?q=RIA")).toEqual([]);

      // Written straight into the database, as another instance would.
      const { db } = ctx.database;
      await db.execute(sql`update enrollments set progress = 50 where user_id = ${a.id}`);
      expect(await summary()).toEqual([
        ["Ann", 50],
        ["Bob", 0],
      ]);
      await db.execute(sql`update courses set title = 'Renamed' where id = ${course.id}`);
      expect((await firstPage())[0]!.courses[0]!.title).toBe("Renamed");
      // Someone joining the list, or changing so that a search finds them.
      await quickLearner(ctx, { name: "Cleo", createdAt: new Date(base + 3000) });
      expect(await summary()).toEqual([
        ["Cleo", 0],
        ["Ann", 50],
      ]);
      await db.execute(sql`update users set name = 'Maria' where id = ${a.id}`);
      expect(await names(adminCookie, "?q=RIA")).toEqual(["Maria"]);
      await db.execute(sql`delete from users where name = 'Cleo'`);
      expect(await summary()).toEqual([
        ["Maria", 50],
        ["Bob", 0],
      ]);
    });

    it("keeps a search's page from its second ask, and one asked once not at all", async () => {
      const { cookie: adminCookie } = await asAdmin();
      const ann = await quickLearner(ctx, { name: "Ann" });
      /** Renames without telling the portal (no trigger fires), as a cache would not see. */
      const renameUnseen = (name: string) =>
        ctx.database.db.transaction(async (tx) => {
          await tx.execute(sql`set local session_replication_role = replica`);
          await tx.execute(sql`update users set name = ${name} where id = ${ann.id}`);
        });

      expect(await names(adminCookie, "?q=ANN")).toEqual(["Ann"]);
      await renameUnseen("Anna");
      // Asked once before, so not kept: read again, and kept from now on.
      expect(await names(adminCookie, "?q=ANN")).toEqual(["Anna"]);
      await renameUnseen("Annie");
      expect(await names(adminCookie, "?q=ANN")).toEqual(["Anna"]);
      // Any change the portal is told of still drops it.
      await ctx.database.db.execute(sql`update users set name = 'Annika' where id = ${ann.id}`);
      expect(await names(adminCookie, "?q=ANN")).toEqual(["Annika"]);
    });
  });

  describe("PATCH /api/users/learners/:id/restrict", () => {
    function restrict(cookie: string | undefined, id: string) {
      return call(ctx, "PATCH", `/api/users/learners/${id}/restrict`, { cookie });
    }

    it("restricts a learner, ending every session at once, and lifts the restriction", async () => {
      const { cookie: adminCookie } = await asAdmin();
      const learner = await quickLearner(ctx, { name: "Rita" });
      const phone = await signInAs(ctx, learner);
      const laptop = await signInAs(ctx, learner);
      expect((await call(ctx, "GET", "/api/auth/me", { cookie: phone })).statusCode).toBe(200);
      expect(await countSessions(ctx, learner.id)).toBe(2);

      const restricted = await restrict(adminCookie, learner.id);
      expect(restricted.statusCode).toBe(200);
      expect(restricted.json()).toEqual({
        status: "restricted",
        message: "Rita has been restricted and signed out.",
      });
      expect((await userById(ctx, learner.id))?.status).toBe("restricted");
      expect(await countSessions(ctx, learner.id)).toBe(0);
      for (const cookie of [phone, laptop]) {
        expect((await call(ctx, "GET", "/api/auth/me", { cookie })).statusCode).toBe(401);
        const own = await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, { cookie });
        expect(own.statusCode).toBe(401);
      }
      const login = await call(ctx, "POST", "/api/auth/login", {
        payload: { email: learner.email, password: DEFAULT_PASSWORD },
      });
      expect(login.statusCode).toBe(403);
      expect(login.json()).toEqual({ message: MESSAGES.restricted, code: "auth.restricted" });
      expect(MESSAGES.restricted).toBe(
        "Your account has been restricted. Please contact the administrator.",
      );
      expect(((await list(adminCookie)).json() as LearnerSummary[])[0]?.status).toBe("restricted");

      const lifted = await restrict(adminCookie, learner.id);
      expect(lifted.statusCode).toBe(200);
      expect(lifted.json()).toEqual({ status: "active", message: "Rita can sign in again." });
      expect((await userById(ctx, learner.id))?.status).toBe("active");
      const again = await signInAs(ctx, learner);
      expect((await call(ctx, "GET", "/api/auth/me", { cookie: again })).statusCode).toBe(200);
    });

    it("leaves other users' sessions alone", async () => {
      const { cookie: adminCookie } = await asAdmin();
      const target = await quickLearner(ctx);
      const other = await quickLearner(ctx);
      const otherCookie = await signInAs(ctx, other);
      await restrict(adminCookie, target.id);
      expect((await call(ctx, "GET", "/api/auth/me", { cookie: otherCookie })).statusCode).toBe(
        200,
      );
      expect((await call(ctx, "GET", "/api/auth/me", { cookie: adminCookie })).statusCode).toBe(
        200,
      );
    });

    it("answers 404 for an unknown id and for an administrator, changing nothing", async () => {
      const { admin, cookie } = await asAdmin();
      const other = await quickAdmin(ctx);
      for (const id of ["no-such-user", admin.id, other.id]) {
        const response = await restrict(cookie, id);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          message: "Learner not found.",
          code: "learners.not_found",
        });
      }
      expect((await userById(ctx, other.id))?.status).toBe("active");
      expect((await call(ctx, "GET", "/api/auth/me", { cookie })).statusCode).toBe(200);
    });
  });

  describe("DELETE /api/users/learners/:id", () => {
    function remove(cookie: string | undefined, id: string) {
      return call(ctx, "DELETE", `/api/users/learners/${id}`, { cookie });
    }

    it("deletes the learner with their enrollments, completions and sessions", async () => {
      const { cookie: adminCookie } = await asAdmin();
      const video = await videoPath(adminCookie);
      const course = await buildPublishedCourse(ctx, adminCookie, { video, modules: 2 });
      const other = await buildPublishedCourse(ctx, adminCookie, { video, modules: 1 });
      const leaving = await quickLearner(ctx);
      const staying = await quickLearner(ctx);
      const leavingCookie = await signInAs(ctx, leaving);
      const stayingCookie = await signInAs(ctx, staying);
      await enrollViaApi(ctx, adminCookie, leaving.id, course.id);
      await enrollViaApi(ctx, adminCookie, leaving.id, other.id);
      await enrollViaApi(ctx, adminCookie, staying.id, course.id);
      await completeViaApi(ctx, leavingCookie, leaving.id, course, 2);
      await completeViaApi(ctx, stayingCookie, staying.id, course, 1);
      const before = await progressRows(ctx);
      expect(before.enrollments).toHaveLength(3);
      expect(before.completions).toHaveLength(3);

      const response = await remove(adminCookie, leaving.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: "Learner deleted" });

      expect(await userById(ctx, leaving.id)).toBeUndefined();
      expect(await countSessions(ctx, leaving.id)).toBe(0);
      const after = await progressRows(ctx);
      expect(after.enrollments.map((e) => e.userId)).toEqual([staying.id]);
      expect(after.completions).toHaveLength(1);
      expect(after.completions[0]?.enrollmentId).toBe(after.enrollments[0]?.id);
      expect((await call(ctx, "GET", "/api/auth/me", { cookie: leavingCookie })).statusCode).toBe(
        401,
      );
      // Everyone else is untouched.
      expect((await call(ctx, "GET", "/api/auth/me", { cookie: stayingCookie })).statusCode).toBe(
        200,
      );
      const listed = (await list(adminCookie)).json() as LearnerSummary[];
      expect(listed.map((l) => l.id)).toEqual([staying.id]);
      const stats = (await call(ctx, "GET", "/api/admin/stats", { cookie: adminCookie })).json();
      expect(stats).toMatchObject({ totalLearners: 1, totalEnrollments: 1, completions: 0 });
      const login = await call(ctx, "POST", "/api/auth/login", {
        payload: { email: leaving.email, password: DEFAULT_PASSWORD },
      });
      expect(login.statusCode).toBe(401);
    });

    it("leaves nothing of the learner behind: every dependent row cascades with the user", async () => {
      const { cookie: adminCookie } = await asAdmin();
      const video = await videoPath(adminCookie);
      const course = await buildPublishedCourse(ctx, adminCookie, { video, modules: 1 });
      const learner = await quickLearner(ctx, { password: null });
      const enrollment = await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      await ctx.database.db
        .insert(moduleCompletions)
        .values({ enrollmentId: enrollment.id, moduleId: course.modules[0]!.id });
      expect((await remove(adminCookie, learner.id)).statusCode).toBe(200);
      const left = await ctx.database.db.execute(sql`
        select (select count(*) from users where id = ${learner.id})::int as users,
               (select count(*) from enrollments where user_id = ${learner.id})::int as enrollments,
               (select count(*) from module_completions
                 where enrollment_id = ${enrollment.id})::int as completions,
               (select count(*) from sessions where user_id = ${learner.id})::int as sessions,
               (select count(*) from auth_tokens where user_id = ${learner.id})::int as tokens`);
      expect((left as unknown as { rows: unknown[] }).rows[0]).toEqual({
        users: 0,
        enrollments: 0,
        completions: 0,
        sessions: 0,
        tokens: 0,
      });
      // The course itself stays.
      const courses = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie: adminCookie });
      expect(courses.statusCode).toBe(200);
    });

    it("answers 404 for an unknown id and for an administrator, deleting nothing", async () => {
      const { admin, cookie } = await asAdmin();
      const other = await quickAdmin(ctx);
      for (const id of ["no-such-user", admin.id, other.id]) {
        const response = await remove(cookie, id);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          message: "Learner not found.",
          code: "learners.not_found",
        });
      }
      expect(await userById(ctx, admin.id)).toBeDefined();
      expect(await userById(ctx, other.id)).toBeDefined();
      // A second delete of the same learner is a 404 too.
      const learner = await quickLearner(ctx, { password: null });
      expect((await remove(cookie, learner.id)).statusCode).toBe(200);
      expect((await remove(cookie, learner.id)).statusCode).toBe(404);
    });
  });

  describe("access", () => {
    const routes = (id: string) =>
      [
        ["GET", "/api/users/learners"],
        ["GET", "/api/users/learners?q=a&limit=5"],
        ["PATCH", `/api/users/learners/${id}/restrict`],
        ["DELETE", `/api/users/learners/${id}`],
      ] as const;

    it("refuses every learners route to anonymous users (401) and learners (403)", async () => {
      const target = await quickLearner(ctx, { password: null });
      const learner = await quickLearner(ctx);
      const learnerCookie = await signInAs(ctx, learner);
      for (const [method, url] of routes(target.id)) {
        const anonymous = await call(ctx, method, url);
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        expect(anonymous.json()).toEqual({
          message: MESSAGES.notSignedIn,
          code: "auth.not_signed_in",
        });
        const asLearner = await call(ctx, method, url, { cookie: learnerCookie });
        expect(asLearner.statusCode, `${method} ${url}`).toBe(403);
        expect(asLearner.json()).toEqual({ message: MESSAGES.forbidden, code: "auth.forbidden" });
      }
      // A learner may not restrict or delete themselves either.
      for (const [method, url] of routes(learner.id).slice(2)) {
        expect((await call(ctx, method, url, { cookie: learnerCookie })).statusCode).toBe(403);
      }
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, target.id));
      expect(row?.status).toBe("active");
      expect(await userById(ctx, learner.id)).toBeDefined();
      const enrolled = await ctx.database.db.select().from(enrollments);
      expect(enrolled).toEqual([]);
    });
  });
});
