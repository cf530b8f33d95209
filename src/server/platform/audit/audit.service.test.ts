import { asc, isNull, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
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
import { type AuditEventInput, createAuditService } from "./audit.service";
import { auditEvents, type LinkedAuditEventRow } from "./audit.table";
import { auditHash } from "./audit-hash";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

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
    // The course's own events (created, modules added, published) are proven in
    // audit.course-events.test.ts; this file counts a learner's story from an empty trail.
    await ctx.database.db.execute(sql`truncate audit_events, audit_head`);
  });

  /** Every row in insertion order, linked or not. */
  const events = () => ctx.database.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
  /** A service of this test's own (the app runs another, with its background linker). */
  const audit = () => createAuditService({ db: ctx.database.db });
  /** Links every committed row, then returns the chain in order. */
  async function chain(): Promise<LinkedAuditEventRow[]> {
    await audit().link();
    const rows = await ctx.database.db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
    expect(rows.every((r) => r.seq !== null && r.hash !== null && r.prevHash !== null)).toBe(true);
    return rows as LinkedAuditEventRow[];
  }
  const event = (i: number | string): AuditEventInput => ({
    type: "module.completed",
    actor: null,
    details: { i },
  });
  /** Rejected by the append-only trigger (drizzle wraps the database's error). */
  async function refused(action: Promise<unknown>) {
    const error = await action.then(
      () => undefined,
      (e: unknown) => e,
    );
    const messages: string[] = [];
    for (let e = error; e instanceof Error; e = e.cause) messages.push(e.message);
    expect(messages.join(" | ")).toMatch(/audit_events is append-only/);
  }
  const unlinkedCount = async () =>
    (await ctx.database.db.select().from(auditEvents).where(isNull(auditEvents.hash))).length;

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

  /** Seven events, linked. */
  async function fullStory() {
    const enrollment = await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    await completeViaApi(ctx, learnerCookie, learner.id, course, 2);
    const restrict = `/api/users/learners/${learner.id}/restrict`;
    expect((await call(ctx, "PATCH", restrict, { cookie: adminCookie })).statusCode).toBe(200);
    expect((await call(ctx, "PATCH", restrict, { cookie: adminCookie })).statusCode).toBe(200);
    expect(await chain()).toHaveLength(7);
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

      const rows = await chain();
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
      // Sequential requests: the chain keeps their order.
      expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b));
      for (const row of rows) {
        expect(row.learnerId).toBe(learner.id);
        expect(row.actorId).toBe(row.actorRole === "admin" ? admin.id : learner.id);
      }
      expect(rows[8]!.details).toMatchObject({
        learnerName: "Grace Hopper",
        learnerEmail: learner.email,
      });
      // The export still names the deleted learner where an event recorded the name.
      const csv = (await call(ctx, "GET", "/api/audit", { cookie: adminCookie })).body;
      const deleted = csv.split("\r\n").find((l) => l.includes(",learner.deleted,"));
      expect(deleted).toContain(`,Test Admin,${admin.email},Grace Hopper,${learner.email},`);
      // The learner is gone; their history is not.
      expect(await audit().verify()).toMatchObject({
        ok: true,
        checked: 9,
        headSeq: 9,
        unlinked: 0,
      });
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
      await refused(db.execute(sql`update audit_events set type = 'x' where seq = 1`));
      await refused(db.execute(sql`delete from audit_events where seq = 1`));
      // A linked row is never linked again.
      await refused(
        db.execute(
          sql`update audit_events set seq = 99, prev_hash = 'x', hash = 'y' where seq = 2`,
        ),
      );
      await refused(
        db.execute(
          sql`update audit_events set hash = null, seq = null, prev_hash = null where seq = 3`,
        ),
      );
      expect(await audit().verify()).toMatchObject({ ok: true, checked: 7 });
    });

    it("lets an unlinked row be linked once, and nothing else", async () => {
      const { db } = ctx.database;
      const service = audit();
      // Each attempt in its own transaction, rolled back: the background linker never sees the row.
      const attempt = (statement: (id: number) => ReturnType<typeof sql>) =>
        db.transaction(async (tx) => {
          const row = await service.append(tx, event("x"));
          expect(row).toMatchObject({
            seq: null,
            prevHash: null,
            hash: null,
            type: "module.completed",
          });
          await tx.execute(statement(row.id));
          throw new Error("linked");
        });
      await expect(
        attempt(
          (id) =>
            sql`update audit_events set seq = 1, prev_hash = 'p', hash = 'h' where id = ${id}`,
        ),
      ).rejects.toThrow("linked");
      // Linking may not change the content.
      await refused(
        attempt(
          (id) =>
            sql`update audit_events set seq = 1, prev_hash = 'p', hash = 'h', type = 'x' where id = ${id}`,
        ),
      );
      await refused(
        attempt(
          (id) =>
            sql`update audit_events set seq = 1, prev_hash = 'p', hash = 'h', details = '{"i":"y"}' where id = ${id}`,
        ),
      );
      await refused(
        attempt(
          (id) =>
            sql`update audit_events set seq = 1, prev_hash = 'p', hash = 'h', at = at + interval '1 ms' where id = ${id}`,
        ),
      );
      // Nor change content without linking, nor half-link, nor delete an unlinked row.
      await refused(attempt((id) => sql`update audit_events set actor_id = 'x' where id = ${id}`));
      await refused(attempt((id) => sql`update audit_events set seq = 1 where id = ${id}`));
      await refused(attempt((id) => sql`delete from audit_events where id = ${id}`));
      // Linked, then linked again: refused.
      await refused(
        db.transaction(async (tx) => {
          const row = await service.append(tx, event("x"));
          await tx.execute(
            sql`update audit_events set seq = 1, prev_hash = 'p', hash = 'h' where id = ${row.id}`,
          );
          await tx.execute(
            sql`update audit_events set seq = 2, prev_hash = 'q', hash = 'i' where id = ${row.id}`,
          );
        }),
      );
      expect(await events()).toEqual([]);
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
      const [row] = await chain().then((r) => r.filter((e) => e.seq === 2));
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

    it("detects a linked row written beyond the head", async () => {
      await fullStory();
      const head = (await chain())[6]!;
      // INSERT is allowed; a row written linked, past the head, is not part of the chain.
      await ctx.database.db.execute(
        sql`insert into audit_events (seq, at, type, details, prev_hash, hash)
            values (8, now(), 'module.completed', '{}'::jsonb, ${head.hash}, ${"f".repeat(64)})`,
      );
      const log = { error: vi.fn() };
      const service = createAuditService({ db: ctx.database.db, log });
      expect(await service.verify()).toMatchObject({
        ok: false,
        checked: 7,
        unlinked: 0,
        broken: { seq: 8, reason: "beyond the head: written outside the chain" },
      });
      // Appends still commit; the linker cannot place them, says so, and verify counts them.
      await ctx.database.db.transaction((tx) => service.append(tx, event(1)));
      expect(await service.verify()).toMatchObject({ ok: false, unlinked: 1, broken: { seq: 8 } });
      expect(log.error).toHaveBeenCalled();
    });

    it("keeps one chain under concurrent appends, each row linked exactly once", async () => {
      const learners = await Promise.all(Array.from({ length: 6 }, () => quickLearner(ctx)));
      await Promise.all(
        learners.map((l) =>
          call(ctx, "POST", "/api/enrollments", {
            cookie: adminCookie,
            payload: { userId: l.id, courseId: course.id },
          }).then((r) => expect(r.statusCode).toBe(201)),
        ),
      );
      // Three "instances" append in 60 concurrent transactions, and after each commit
      // another instance links while the remaining transactions still append (the app's
      // linker runs too).
      const services = [audit(), audit(), audit()];
      await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          await ctx.database.db.transaction(async (tx) => {
            await services[i % 3]!.append(tx, event(i));
            if (i % 2) await services[i % 3]!.append(tx, event(`${i}b`));
          });
          await services[(i + 1) % 3]!.link();
        }),
      );
      const rows = await chain();
      expect(rows).toHaveLength(96);
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 96 }, (_, i) => i + 1));
      expect(new Set(rows.map((r) => r.id)).size).toBe(96);
      const details = rows.flatMap((r) => (r.type === "module.completed" ? [r.details.i] : []));
      expect(new Set(details).size).toBe(90);
      expect(await services[0]!.verify()).toMatchObject({
        ok: true,
        checked: 96,
        headSeq: 96,
        unlinked: 0,
      });
    });

    it("links a row inserted before rows already linked (a late commit) after them", async () => {
      const service = audit();
      const { db } = ctx.database;
      for (const i of [1, 2, 3]) await db.transaction((tx) => service.append(tx, event(i)));
      const [first] = await chain();
      // What a transaction that took its id first but committed last leaves behind.
      await db.execute(
        sql`insert into audit_events (id, at, type, details) overriding system value
            values (${first!.id - 1}, now(), 'module.completed', '{"i":"late"}'::jsonb)`,
      );
      const rows = await chain();
      expect(rows.map((r) => r.details.i)).toEqual([1, 2, 3, "late"]);
      expect(rows[3]!.prevHash).toBe(rows[2]!.hash);
      expect(await service.verify()).toMatchObject({ ok: true, checked: 4, unlinked: 0 });
    });

    it.skipIf(!onPostgres)(
      "links the row of a transaction that commits after a later one (PostgreSQL)",
      async () => {
        const service = audit();
        const { db } = ctx.database;
        let release!: () => void;
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        let appended!: () => void;
        const inserted = new Promise<void>((resolve) => {
          appended = resolve;
        });
        const slow = db.transaction(async (tx) => {
          await service.append(tx, event("early"));
          appended();
          await released;
        });
        await inserted;
        await db.transaction((tx) => service.append(tx, event("late")));
        // Linking does not wait for the open transaction, nor skip its row.
        await service.link();
        expect((await events()).map((r) => [r.details.i, r.seq])).toEqual([["late", 1]]);
        release();
        await slow;
        const rows = await chain();
        expect(rows.map((r) => r.details.i)).toEqual(["late", "early"]);
        expect(rows[0]!.id).toBeGreaterThan(rows[1]!.id);
        expect(await service.verify()).toMatchObject({ ok: true, checked: 2, unlinked: 0 });
      },
    );

    it("links in the background, without anyone calling link()", async () => {
      // The app's service: an append schedules a pass shortly after it.
      await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      await vi.waitFor(async () => expect(await unlinkedCount()).toBe(0), {
        timeout: 3_000,
        interval: 20,
      });
      expect((await events()).map((r) => [r.type, r.seq])).toEqual([["enrollment.created", 1]]);

      // The interval links what other instances appended (here: a service never started).
      const other = audit();
      const log = { error: vi.fn() };
      const background = createAuditService({ db: ctx.database.db, log, linkIntervalMs: 20 });
      background.start();
      try {
        await ctx.database.db.transaction((tx) => other.append(tx, event("elsewhere")));
        await vi.waitFor(async () => expect(await unlinkedCount()).toBe(0), {
          timeout: 3_000,
          interval: 20,
        });
      } finally {
        await background.stop();
      }
      expect((await events()).map((r) => r.seq)).toEqual([1, 2]);
      expect(log.error).not.toHaveBeenCalled();
      expect(await other.verify()).toMatchObject({ ok: true, checked: 2, unlinked: 0 });
    });

    it("logs a failing background pass and retries it, without throwing", async () => {
      let failures = 0;
      let failedTwice = () => {};
      const retried = new Promise<void>((resolve) => {
        failedTwice = resolve;
      });
      const log = {
        error: vi.fn((_details: object, _message: string) => {
          if (++failures === 2) failedTwice();
        }),
      };
      const background = createAuditService({
        db: ctx.database.db,
        log,
        linkDelayMs: 5,
        linkIntervalMs: 20,
      });
      background.start();
      try {
        // A stray linked row at seq 1 makes every link of seq 1 fail (unique seq).
        await ctx.database.db.execute(
          sql`insert into audit_events (seq, at, type, details, prev_hash, hash)
              values (1, now(), 'module.completed', '{}'::jsonb, 'p', 'h')`,
        );
        await ctx.database.db.transaction((tx) => background.append(tx, event(1)));
        // The first pass fails, and so does the next one: a retry.
        await retried;
        expect(log.error.mock.calls[0]![1]).toMatch(/audit linker failed/);
      } finally {
        await background.stop();
      }
      expect(await unlinkedCount()).toBe(1);
    });
  });

  describe("GET /api/audit (CSV export)", () => {
    it("exports the trail for a learner, a course or a date range, for administrators only", async () => {
      await fullStory();
      // A name a spreadsheet would run as a formula, were it not neutralised.
      const other = await quickLearner(ctx, { name: "=HYPERLINK(1)" });
      await enrollViaApi(ctx, adminCookie, other.id, course.id);

      const all = await call(ctx, "GET", "/api/audit", { cookie: adminCookie });
      expect(all.statusCode).toBe(200);
      expect(all.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(all.headers["content-disposition"]).toMatch(/attachment; filename="audit-.*\.csv"/);
      const lines = all.body.trim().split("\r\n");
      expect(lines[0]).toBe(
        "seq,at,type,actor_id,actor_role,learner_id,course_id,module_id,details,prev_hash,hash," +
          "actor_name,actor_email,learner_name,learner_email,course_title",
      );
      expect(lines).toHaveLength(9);
      // Names and emails beside the ids: the actor's, the learner's and the course's.
      const [enrolled] = lines.filter((l) => l.includes(",enrollment.created,"));
      expect(
        enrolled!.endsWith(
          `,Test Admin,${admin.email},Grace Hopper,${learner.email},${course.title}`,
        ),
      ).toBe(true);
      const [completed] = lines.filter((l) => l.includes(",module.completed,"));
      expect(completed).toContain(`,Grace Hopper,${learner.email},Grace Hopper,${learner.email},`);
      const [toggled] = lines.filter((l) => l.includes(",learner.restricted,"));
      // No course on this event: its title column stays empty.
      expect(toggled!.endsWith(`,Test Admin,${admin.email},Grace Hopper,${learner.email},`)).toBe(
        true,
      );
      expect(lines.at(-1)).toContain(`,Test Admin,${admin.email},'=HYPERLINK(1),${other.email},`);

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

      // Dates that do not exist, or that the database cannot hold, are refused before any
      // byte of the export is sent.
      for (const date of [
        "yesterday",
        "0000-01-01",
        "2024-02-30",
        "2023-02-29",
        "2026-13-01",
        "2026-04-00",
      ]) {
        for (const query of [`from=${date}`, `to=${date}`]) {
          const bad = await call(ctx, "GET", `/api/audit?${query}`, { cookie: adminCookie });
          expect(bad.statusCode, query).toBe(400);
          expect(bad.headers["content-disposition"], query).toBeUndefined();
          expect(bad.json().message, query).toMatch(/date/i);
        }
      }
      const leapDay = await call(ctx, "GET", "/api/audit?from=2024-02-29&to=2024-02-29", {
        cookie: adminCookie,
      });
      expect(leapDay.statusCode).toBe(200);
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
      expect(res.json()).toMatchObject({ ok: true, checked: 7, headSeq: 7, unlinked: 0 });
    });
  });
});
