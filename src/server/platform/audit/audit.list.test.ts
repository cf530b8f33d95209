import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { type AuditEvent, type AuditEventsPage, auditEventsPageSchema } from "../../../contract";
import {
  buildPublishedCourse,
  call,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { createAuditService } from "./audit.service";

/**
 * GET /api/audit/events: the audit trail's list on screen, for administrators, newest
 * first, filtered by who, what, course, learner and dates, in keyset pages.
 */
describe("the audit list", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  let story: Awaited<ReturnType<typeof buildStory>>;

  /**
   * Two administrators and two courses: Ada builds and edits "Audit Alpha"; Ben builds
   * "Audit Beta", enrolls Grace in it and deletes "Audit Alpha".
   */
  async function buildStory() {
    const ada = await quickAdmin(ctx, { name: "Ada Admin" });
    const ben = await quickAdmin(ctx, { name: "Ben Admin" });
    const adaCookie = await signInAs(ctx, ada);
    const benCookie = await signInAs(ctx, ben);
    const grace = await quickLearner(ctx, { name: "Grace Hopper" });
    const graceCookie = await signInAs(ctx, grace);
    const videoPath = await video(adaCookie);
    const alpha = await buildPublishedCourse(ctx, adaCookie, {
      video: videoPath,
      title: "Audit Alpha",
      modules: 2,
    });
    const renamed = await call(ctx, "PUT", `/api/courses/${alpha.id}`, {
      cookie: adaCookie,
      payload: {
        title: "Audit Alpha II",
        description: alpha.description,
        category: alpha.category,
        duration: alpha.duration,
      },
    });
    expect(renamed.statusCode).toBe(200);
    const beta = await buildPublishedCourse(ctx, benCookie, {
      video: videoPath,
      title: "Audit Beta",
      modules: 1,
    });
    await enrollViaApi(ctx, benCookie, grace.id, beta.id);
    expect(
      (await call(ctx, "DELETE", `/api/courses/${alpha.id}`, { cookie: benCookie })).statusCode,
    ).toBe(200);
    return { ada, ben, adaCookie, benCookie, grace, graceCookie, alpha, beta };
  }

  beforeEach(async () => {
    story = await buildStory();
  });

  async function list(query: Record<string, string | number> = {}, cookie = story.adaCookie) {
    const params = new URLSearchParams(
      Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]),
    );
    return call(ctx, "GET", `/api/audit/events?${params}`, { cookie });
  }
  async function page(query: Record<string, string | number> = {}): Promise<AuditEventsPage> {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(200);
    return auditEventsPageSchema.parse(response.json());
  }
  const typesOf = (events: AuditEvent[]) => events.map((e) => e.type);

  it("lists every event newest first, with who, what, the learner and the course in words", async () => {
    const { events, nextCursor } = await page({ limit: 100 });
    expect(nextCursor).toBeNull();
    expect(typesOf(events)).toEqual([
      "course.deleted",
      "enrollment.created",
      "course.published",
      "module.added",
      "course.created",
      "course.updated",
      "course.published",
      "module.added",
      "module.added",
      "course.created",
    ]);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));

    const [deleted, enrolled] = events;
    // The deleted course is still named, by the title the event recorded.
    expect(deleted).toMatchObject({
      summary: "Deleted the course “Audit Alpha II”",
      actor: { id: story.ben.id, role: "admin", name: "Ben Admin", email: story.ben.email },
      course: { id: story.alpha.id, title: "Audit Alpha II" },
      learner: null,
    });
    expect(enrolled).toMatchObject({
      summary: "Enrolled the learner",
      learner: { id: story.grace.id, name: "Grace Hopper", email: story.grace.email },
      course: { id: story.beta.id, title: "Audit Beta" },
    });
    const edit = events.find((e) => e.type === "course.updated")!;
    expect(edit.summary).toBe("Edited the course: title from “Audit Alpha” to “Audit Alpha II”");
    expect(edit.details).toMatchObject({
      changes: [{ field: "title", from: "Audit Alpha", to: "Audit Alpha II" }],
    });
  });

  it("filters by who, what, course, learner and dates, each alone or together", async () => {
    const { ada, ben, alpha, beta, grace } = story;
    const actors = (events: AuditEvent[]) => [...new Set(events.map((e) => e.actor?.id))];

    // Who: by email (any case) or by id.
    const byAda = await page({ actor: ada.email.toUpperCase(), limit: 100 });
    expect(byAda.events).toHaveLength(5);
    expect(actors(byAda.events)).toEqual([ada.id]);
    expect((await page({ actor: ben.id, limit: 100 })).events).toHaveLength(5);
    expect((await page({ actor: "nobody@example.com" })).events).toEqual([]);

    // What.
    expect(typesOf((await page({ type: "module.added" })).events)).toEqual([
      "module.added",
      "module.added",
      "module.added",
    ]);
    // Course: its whole history, also once deleted.
    const alphaEvents = (await page({ courseId: alpha.id, limit: 100 })).events;
    expect(alphaEvents).toHaveLength(6);
    expect(alphaEvents.every((e) => e.course?.id === alpha.id)).toBe(true);
    // Learner: by email or id.
    const graces = await page({ learner: grace.email });
    expect(typesOf(graces.events)).toEqual(["enrollment.created"]);
    expect((await page({ learnerId: grace.id })).events).toEqual(graces.events);
    expect((await page({ learner: grace.email, learnerId: ada.id })).events).toEqual([]);

    // Together: every filter must hold.
    expect(
      typesOf((await page({ courseId: beta.id, actor: ben.email, type: "course.created" })).events),
    ).toEqual(["course.created"]);
    expect((await page({ courseId: beta.id, actor: ada.email })).events).toEqual([]);

    // Dates: whole UTC days, inclusive.
    const today = new Date().toISOString().slice(0, 10);
    expect((await page({ from: today, to: today, limit: 100 })).events).toHaveLength(10);
    expect((await page({ to: "2020-01-01" })).events).toEqual([]);
    expect((await page({ from: "2999-01-01" })).events).toEqual([]);
  });

  it("pages by cursor, newest first, without gaps or repeats", async () => {
    const all = (await page({ limit: 100 })).events.map((e) => e.seq);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const next: AuditEventsPage = await page({ limit: 3, ...(cursor ? { cursor } : {}) });
      expect(next.events.length).toBeLessThanOrEqual(3);
      seen.push(...next.events.map((e) => e.seq));
      cursor = next.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual(all);
    // Filters hold across pages.
    const first = await page({ courseId: story.alpha.id, limit: 4 });
    const second = await page({
      courseId: story.alpha.id,
      limit: 4,
      cursor: first.nextCursor!,
    });
    expect(second.nextCursor).toBeNull();
    expect([...first.events, ...second.events].map((e) => e.type)).toEqual([
      "course.deleted",
      "course.updated",
      "course.published",
      "module.added",
      "module.added",
      "course.created",
    ]);
  });

  it("refuses bad limits, cursors, types and ranges with a code, and learners with 403", async () => {
    const refusals: [Record<string, string | number>, string][] = [
      [{ limit: 0 }, "validation.invalid_query"],
      [{ limit: 101 }, "validation.invalid_query"],
      [{ limit: "ten" }, "validation.invalid_query"],
      [{ type: "course.renamed" }, "validation.invalid_query"],
      [{ from: "2026-02-30" }, "validation.invalid_query"],
      [{ cursor: "bm90LWEtY3Vyc29y" }, "validation.invalid_cursor"],
      [{ cursor: Buffer.from("seq:-4").toString("base64url") }, "validation.invalid_cursor"],
      [{ from: "2026-03-02", to: "2026-03-01" }, "validation.invalid_range"],
    ];
    for (const [query, code] of refusals) {
      const response = await list(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json()).toMatchObject({ code, message: expect.any(String) });
    }
    const learner = await list({}, story.graceCookie);
    expect(learner.statusCode).toBe(403);
    expect(learner.json()).toMatchObject({ code: "auth.forbidden" });
    const anonymous = await call(ctx, "GET", "/api/audit/events");
    expect(anonymous.statusCode).toBe(401);
  });

  it("exports the same events as the list shows for the same filters, and the chain verifies", async () => {
    const filters = { actor: story.ben.email, type: "course.published" };
    const shown = (await page(filters)).events;
    expect(shown).toHaveLength(1);
    const csv = await call(
      ctx,
      "GET",
      `/api/audit?${new URLSearchParams(filters as Record<string, string>)}`,
      { cookie: story.adaCookie },
    );
    expect(csv.statusCode).toBe(200);
    const rows = csv.body.trim().split("\r\n").slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.startsWith(`${shown[0]!.seq},`)).toBe(true);

    const report = await createAuditService({ db: ctx.database.db }).verify();
    expect(report).toMatchObject({ ok: true, checked: 10, unlinked: 0 });
    // The list reads the same chain: nothing left unlinked, nothing listed twice.
    const linked = await ctx.database.db.execute(
      sql`select count(*)::int as n from audit_events where seq is not null`,
    );
    expect((linked as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(10);
  });
});
