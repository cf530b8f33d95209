import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { Course } from "../../../contract";
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
import { createAuditService } from "./audit.service";
import { auditEvents } from "./audit.table";

describe("audit trail", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  let admin: Awaited<ReturnType<typeof quickAdmin>>;
  let adminCookie: string;
  let learner: Awaited<ReturnType<typeof quickLearner>>;
  let learnerCookie: string;
  let course: Course;

  beforeEach(async () => {
    admin = await quickAdmin(ctx);
    adminCookie = await signInAs(ctx, admin);
    learner = await quickLearner(ctx, { name: "Grace Hopper" });
    learnerCookie = await signInAs(ctx, learner);
    course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: 2,
    });
  });

  const events = () => ctx.database.db.select().from(auditEvents).orderBy(auditEvents.seq);
  const audit = () => createAuditService({ db: ctx.database.db });

  /** What a tamperer with the table owner's rights does: lift the append-only trigger. */
  async function tamper(statement: ReturnType<typeof sql>) {
    const { db } = ctx.database;
    await db.execute(sql`alter table audit_events disable trigger audit_events_no_update`);
    try {
      await db.execute(statement);
    } finally {
      await db.execute(sql`alter table audit_events enable trigger audit_events_no_update`);
    }
  }

  async function fullStory() {
    const enrollment = await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    await completeViaApi(ctx, learnerCookie, learner.id, course, 2);
    const restrict = `/api/users/learners/${learner.id}/restrict`;
    expect((await call(ctx, "PATCH", restrict, { cookie: adminCookie })).statusCode).toBe(200);
    expect((await call(ctx, "PATCH", restrict, { cookie: adminCookie })).statusCode).toBe(200);
    return enrollment;
  }

  describe("audit events", () => {
    it("records each credit event with actor, learner, course and module, in order", async () => {
      const enrollment = await fullStory();
      const remove = await call(ctx, "DELETE", `/api/enrollments/${enrollment.id}`, {
        cookie: adminCookie,
      });
      expect(remove.statusCode).toBe(200);
      const del = await call(ctx, "DELETE", `/api/users/learners/${learner.id}`, {
        cookie: adminCookie,
      });
      expect(del.statusCode).toBe(200);

      const rows = await events();
      expect(rows.map((r) => [r.type, r.actorRole, r.moduleId])).toEqual([
        ["enrollment.created", "admin", null],
        ["module.completed", "learner", course.modules[0]!.id],
        ["module.completed", "learner", course.modules[1]!.id],
        ["course.completed", "learner", null],
        ["certificate.issued", "learner", null],
        ["learner.restricted", "admin", null],
        ["learner.unrestricted", "admin", null],
        ["enrollment.removed", "admin", null],
        ["learner.deleted", "admin", null],
      ]);
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      for (const row of rows) {
        expect(row.learnerId).toBe(learner.id);
        expect(row.actorId).toBe(row.actorRole === "admin" ? admin.id : learner.id);
      }
      expect(rows[8]!.details).toMatchObject({
        learnerName: "Grace Hopper",
        learnerEmail: learner.email,
      });
      // The learner is gone; their history is not.
      expect(await audit().verify()).toMatchObject({ ok: true, checked: 9, headSeq: 9 });
    });

    it("a refused action records nothing", async () => {
      await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      const again = await call(ctx, "POST", "/api/enrollments", {
        cookie: adminCookie,
        payload: { userId: learner.id, courseId: course.id },
      });
      expect(again.statusCode).toBe(409);
      const locked = await call(ctx, "POST", "/api/progress/update", {
        cookie: learnerCookie,
        payload: { userId: learner.id, courseId: course.id, moduleId: course.modules[1]!.id },
      });
      expect(locked.statusCode).toBe(409);
      expect((await events()).map((r) => r.type)).toEqual(["enrollment.created"]);
    });

    it("the database refuses UPDATE and DELETE on the trail", async () => {
      await fullStory();
      const { db } = ctx.database;
      await expect(
        db.execute(sql`update audit_events set type = 'x' where seq = 1`),
      ).rejects.toThrow();
      await expect(db.execute(sql`delete from audit_events where seq = 1`)).rejects.toThrow();
      expect(await audit().verify()).toMatchObject({ ok: true, checked: 7 });
    });
  });

  describe("the hash chain", () => {
    it("detects an edited row", async () => {
      await fullStory();
      await tamper(sql`update audit_events set actor_id = 'someone-else' where seq = 3`);
      expect(await audit().verify()).toMatchObject({
        ok: false,
        checked: 2,
        broken: { seq: 3, reason: "content does not match its hash (edited)" },
      });
    });

    it("detects an edited detail even when the row's own hash is recomputed", async () => {
      await fullStory();
      // A careful tamperer rewrites the row's hash too: the next row's prev_hash then breaks.
      const [row] = await events().then((r) => r.filter((e) => e.seq === 2));
      const { auditHash } = await import("./audit-hash");
      const forged = { ...row!, details: { ...row!.details, progress: 100 } };
      const hash = auditHash(forged);
      await tamper(
        sql`update audit_events set details = ${JSON.stringify(forged.details)}::jsonb, hash = ${hash} where seq = 2`,
      );
      expect(await audit().verify()).toMatchObject({ ok: false, broken: { seq: 3 } });
    });

    it("detects a deleted row, in the middle or at the end", async () => {
      await fullStory();
      await tamper(sql`delete from audit_events where seq = 4`);
      expect(await audit().verify()).toMatchObject({ ok: false, checked: 3, broken: { seq: 5 } });
    });

    it("detects the last row deleted", async () => {
      await fullStory();
      await tamper(sql`delete from audit_events where seq = 7`);
      const report = await audit().verify();
      expect(report).toMatchObject({ ok: false, checked: 6, broken: { seq: 7 } });
      expect(report.broken!.reason).toContain("missing");
    });

    it("keeps one chain under concurrent appends", async () => {
      const learners = await Promise.all(Array.from({ length: 6 }, () => quickLearner(ctx)));
      await Promise.all(
        learners.map((l) =>
          call(ctx, "POST", "/api/enrollments", {
            cookie: adminCookie,
            payload: { userId: l.id, courseId: course.id },
          }).then((r) => expect(r.statusCode).toBe(201)),
        ),
      );
      const service = audit();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          ctx.database.db.transaction((tx) =>
            service.append(tx, { type: "module.completed", actor: null, details: { i } }),
          ),
        ),
      );
      const rows = await events();
      expect(rows).toHaveLength(26);
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 26 }, (_, i) => i + 1));
      expect(await service.verify()).toMatchObject({ ok: true, checked: 26, headSeq: 26 });
    });
  });

  describe("GET /api/audit (CSV export)", () => {
    it("exports the trail for a learner, a course or a date range, for administrators only", async () => {
      await fullStory();
      const other = await quickLearner(ctx);
      await enrollViaApi(ctx, adminCookie, other.id, course.id);

      const all = await call(ctx, "GET", "/api/audit", { cookie: adminCookie });
      expect(all.statusCode).toBe(200);
      expect(all.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(all.headers["content-disposition"]).toMatch(/attachment; filename="audit-.*\.csv"/);
      const lines = all.body.trim().split("\r\n");
      expect(lines[0]).toBe(
        "seq,at,type,actor_id,actor_role,learner_id,course_id,module_id,details,prev_hash,hash",
      );
      expect(lines).toHaveLength(9);

      const mine = await call(ctx, "GET", `/api/audit?learnerId=${other.id}`, {
        cookie: adminCookie,
      });
      expect(mine.body.trim().split("\r\n")).toHaveLength(2);
      expect(mine.body).toContain("enrollment.created");

      const byCourse = await call(ctx, "GET", `/api/audit?courseId=${course.id}`, {
        cookie: adminCookie,
      });
      expect(byCourse.body.trim().split("\r\n")).toHaveLength(7);

      const today = new Date().toISOString().slice(0, 10);
      const ranged = await call(ctx, "GET", `/api/audit?from=${today}&to=${today}`, {
        cookie: adminCookie,
      });
      expect(ranged.body.trim().split("\r\n")).toHaveLength(9);
      const past = await call(ctx, "GET", "/api/audit?from=2001-01-01&to=2001-01-02", {
        cookie: adminCookie,
      });
      expect(past.body.trim().split("\r\n")).toHaveLength(1);

      const bad = await call(ctx, "GET", "/api/audit?from=yesterday", { cookie: adminCookie });
      expect(bad.statusCode).toBe(400);
      const reversed = await call(ctx, "GET", "/api/audit?from=2026-02-02&to=2026-02-01", {
        cookie: adminCookie,
      });
      expect(reversed.statusCode).toBe(400);
      // Restricting signed the learner out: sign in again.
      const again = await signInAs(ctx, learner);
      expect((await call(ctx, "GET", "/api/audit", { cookie: again })).statusCode).toBe(403);
      expect((await call(ctx, "GET", "/api/audit")).statusCode).toBe(401);
    });

    it("GET /api/audit/verify reports the chain for administrators", async () => {
      await fullStory();
      const res = await call(ctx, "GET", "/api/audit/verify", { cookie: adminCookie });
      expect(res.json()).toMatchObject({ ok: true, checked: 7, headSeq: 7 });
    });
  });
});
