import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Course,
  DEFAULT_ACTIVITY,
  DEFAULT_REMINDER_SETTINGS,
  REMINDER_MESSAGES,
} from "../../../contract";
import type { App } from "../../app";
import { expectFieldRefused } from "../../testing/errors";
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
import { leafParts, outboxMessages } from "../../testing/mail";
import { anotherInstance, useTestApp } from "../../testing/test-app";

const DAY_MS = 86_400_000;
/** The reminders' clock; each test starts it at the real time (rows are dated by the database). */
let clock = new Date();
const at = (start: Date, days: number) => {
  clock = new Date(start.getTime() + days * DAY_MS);
};

describe("learner reminders", () => {
  const ctx = useTestApp({}, { clock: () => clock });
  const videoPath = useSharedVideo(ctx);

  let other: App;
  beforeAll(async () => {
    // A second instance on the same database, as a scaled-out deployment runs.
    other = await anotherInstance(ctx, { clock: () => clock });
  });
  afterAll(async () => {
    await other?.close();
  });

  /** The reminders sent to a learner: their certificate and enrollment mails are not counted. */
  const mailsTo = (email: string) =>
    outboxMessages(join(ctx.dataDir, "outbox")).filter(
      (m) =>
        m.mime.headers.to?.includes(email) &&
        !/certificate|^You are enrolled/.test(m.mime.headers.subject ?? ""),
    );
  /** Both instances sweep at the same moment. */
  const sweepBoth = () => Promise.all([ctx.app.mailJobs.sweep(), other.mailJobs.sweep()]);
  const textOf = (mail: ReturnType<typeof mailsTo>[number]) =>
    leafParts(mail.mime)
      .find((p) => p.contentType.startsWith("text/plain"))!
      .body.toString("utf8");

  async function setUp(options: { modules?: number; validDays?: number } = {}) {
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: options.modules ?? 3,
      title: "Fire Safety",
    });
    if (options.validDays) {
      const saved = await call(ctx, "PUT", `/api/courses/${course.id}/activity`, {
        cookie: adminCookie,
        payload: { ...DEFAULT_ACTIVITY, enrollmentValidDays: options.validDays },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    return { adminCookie, course };
  }

  async function enrolledLearner(adminCookie: string, course: Course, name: string) {
    const learner = await quickLearner(ctx, {
      name,
      email: `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}@example.com`,
    });
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    return { ...learner, cookie: await signInAs(ctx, learner) };
  }

  it("keeps the settings an administrator saves, refusing bad values and other roles", async () => {
    const { adminCookie } = await setUp({ modules: 1 });
    const url = "/api/admin/reminder-settings";
    const read = await call(ctx, "GET", url, { cookie: adminCookie });
    expect(read.json()).toEqual(DEFAULT_REMINDER_SETTINGS);

    for (const inactivityDays of [0, 366, 2.5, "7"]) {
      const bad = await call(ctx, "PUT", url, {
        cookie: adminCookie,
        payload: { inactivityDays, expiryReminders: true },
      });
      expect(bad.statusCode).toBe(400);
      expectFieldRefused(bad, "inactivityDays");
    }
    const learner = await quickLearner(ctx);
    const learnerCookie = await signInAs(ctx, learner);
    const refused = await call(ctx, "PUT", url, {
      cookie: learnerCookie,
      payload: { inactivityDays: 3, expiryReminders: false },
    });
    expect(refused.statusCode).toBe(403);
    expect((await call(ctx, "GET", url)).statusCode).toBe(401);
    expect((await call(ctx, "GET", url, { cookie: adminCookie })).json()).toEqual(
      DEFAULT_REMINDER_SETTINGS,
    );

    const saved = await call(ctx, "PUT", url, {
      cookie: adminCookie,
      payload: { inactivityDays: 10, expiryReminders: false },
    });
    expect(saved.json()).toEqual({ inactivityDays: 10, expiryReminders: false });
    expect((await call(ctx, "GET", url, { cookie: adminCookie })).json()).toEqual({
      inactivityDays: 10,
      expiryReminders: false,
    });
  });

  it("reminds an inactive learner once per stretch of inactivity, whichever instance sweeps", async () => {
    const start = new Date();
    at(start, 0);
    const { adminCookie, course } = await setUp();
    const ada = await enrolledLearner(adminCookie, course, "Ada Idle");
    const done = await enrolledLearner(adminCookie, course, "Finn Finished");
    await completeViaApi(ctx, ada.cookie, ada.id, course, 1);
    await completeViaApi(ctx, done.cookie, done.id, course, 3);

    // Off by default: nobody is reminded, however long they are away.
    at(start, 30);
    await sweepBoth();
    expect(mailsTo(ada.email)).toHaveLength(0);

    const put = await call(ctx, "PUT", "/api/admin/reminder-settings", {
      cookie: adminCookie,
      payload: { inactivityDays: 7, expiryReminders: true },
    });
    expect(put.statusCode).toBe(200);
    at(start, 6);
    await sweepBoth();
    expect(mailsTo(ada.email)).toHaveLength(0);

    at(start, 8);
    await sweepBoth();
    const [mail] = mailsTo(ada.email);
    expect(mailsTo(ada.email)).toHaveLength(1);
    expect(mail!.mime.headers.subject).toBe("Continue Fire Safety");
    expect(textOf(mail!)).toContain(`http://localhost:5000/course/${course.id}`);
    expect(textOf(mail!)).toContain("for 7 days");
    expect(mail!.mime.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail!.mime.headers["list-unsubscribe"]).toMatch(
      /^<http:\/\/localhost:5000\/api\/reminders\/unsubscribe\/one-click\?token=[\w-]{43}>$/,
    );
    // A completed course is never reminded.
    expect(mailsTo(done.email)).toHaveLength(0);

    // Not again the next day, nor from the other instance.
    at(start, 9);
    await sweepBoth();
    at(start, 20);
    await sweepBoth();
    expect(mailsTo(ada.email)).toHaveLength(1);

    // Activity re-arms it: after the next module, the next stretch of inactivity is reminded.
    await completeViaApi(
      ctx,
      ada.cookie,
      ada.id,
      { ...course, modules: course.modules.slice(1) },
      1,
    );
    await sweepBoth();
    expect(mailsTo(ada.email)).toHaveLength(2);
    await sweepBoth();
    expect(mailsTo(ada.email)).toHaveLength(2);
  });

  it("leaves the reminders a stopping instance did not send to the next sweep", async () => {
    const start = new Date();
    at(start, 0);
    const { adminCookie, course } = await setUp();
    const eve = await enrolledLearner(adminCookie, course, "Eve Away");
    const put = await call(ctx, "PUT", "/api/admin/reminder-settings", {
      cookie: adminCookie,
      payload: { inactivityDays: 5, expiryReminders: false },
    });
    expect(put.statusCode).toBe(200);
    at(start, 6);

    // Shutting down, it records what is due but sends none of it, and gives it back.
    const stopping = await anotherInstance(ctx, { clock: () => clock });
    try {
      await stopping.mailJobs.stop();
      const { reminders } = await stopping.mailJobs.sweep();
      expect(reminders).toMatchObject({ swept: true, sent: 0, failed: 0, digests: 0 });
    } finally {
      await stopping.close();
    }
    expect(mailsTo(eve.email)).toHaveLength(0);

    await sweepBoth();
    expect(mailsTo(eve.email)).toHaveLength(1);
    await sweepBoth();
    expect(mailsTo(eve.email)).toHaveLength(1);
  });

  it("counts watching a course's video as activity in that course only", async () => {
    const start = new Date();
    at(start, 0);
    const { adminCookie, course: watched } = await setUp({ modules: 1 });
    const other = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: 1,
      title: "Ethics",
    });
    const ada = await enrolledLearner(adminCookie, watched, "Ada Watcher");
    await enrollViaApi(ctx, adminCookie, ada.id, other.id);
    const put = await call(ctx, "PUT", "/api/admin/reminder-settings", {
      cookie: adminCookie,
      payload: { inactivityDays: 7, expiryReminders: false },
    });
    expect(put.statusCode).toBe(200);

    // On day 6 Ada plays the first course's video; her other course stays untouched.
    at(start, 6);
    const beat = await call(ctx, "POST", "/api/progress/heartbeat", {
      cookie: ada.cookie,
      payload: {
        courseId: watched.id,
        moduleId: watched.modules[0]!.id,
        intervals: [],
        position: 0,
        duration: 300,
      },
    });
    expect(beat.statusCode, beat.body).toBe(200);
    at(start, 8);
    await sweepBoth();
    expect(mailsTo(ada.email).map((m) => m.mime.headers.subject)).toEqual(["Continue Ethics"]);
    at(start, 14);
    await sweepBoth();
    expect(mailsTo(ada.email).map((m) => m.mime.headers.subject)).toEqual([
      "Continue Ethics",
      "Continue Fire Safety",
    ]);
  });

  it("dates the reminder in the format chosen in Settings", async () => {
    const start = new Date();
    at(start, 0);
    const { adminCookie, course } = await setUp({ validDays: 30 });
    const saved = await call(ctx, "PUT", "/api/admin/organisation", {
      cookie: adminCookie,
      payload: { name: "", logoPath: null, address: "", contactEmail: "", dateFormat: "iso" },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const cy = await enrolledLearner(adminCookie, course, "Cy Soon");
    at(start, 16.5);
    await sweepBoth();
    const ends = new Date(start.getTime() + 30 * DAY_MS).toISOString().slice(0, 10);
    expect(mailsTo(cy.email)[0]!.mime.headers.subject).toBe(`Fire Safety closes on ${ends}`);
  });

  it("reminds 14 days before an enrollment expires, once per expiry", async () => {
    const start = new Date();
    at(start, 0);
    const { adminCookie, course } = await setUp({ validDays: 30 });
    const bo = await enrolledLearner(adminCookie, course, "Bo Busy");

    at(start, 15);
    await sweepBoth();
    expect(mailsTo(bo.email)).toHaveLength(0);

    at(start, 16.5);
    await sweepBoth();
    const mails = mailsTo(bo.email);
    expect(mails).toHaveLength(1);
    const ends = new Date(start.getTime() + 30 * DAY_MS).toLocaleDateString("en-US", {
      year: "numeric",
      month: "long",
      day: "numeric",
      timeZone: "UTC",
    });
    expect(mails[0]!.mime.headers.subject).toBe(`Fire Safety closes on ${ends}`);

    at(start, 20);
    await sweepBoth();
    at(start, 31);
    await sweepBoth();
    expect(mailsTo(bo.email)).toHaveLength(1);

    // Turned off, nobody else is reminded.
    const late = await enrolledLearner(adminCookie, course, "Lea Late");
    await call(ctx, "PUT", "/api/admin/reminder-settings", {
      cookie: adminCookie,
      payload: { inactivityDays: null, expiryReminders: false },
    });
    at(new Date(), 20);
    await sweepBoth();
    expect(mailsTo(late.email)).toHaveLength(0);
  });

  it("stops reminders for a learner who follows the unsubscribe link, and refuses a bad one", async () => {
    const start = new Date();
    at(start, 0);
    const { adminCookie, course } = await setUp();
    const cy = await enrolledLearner(adminCookie, course, "Cy Quiet");
    const di = await enrolledLearner(adminCookie, course, "Di Direct");
    await call(ctx, "PUT", "/api/admin/reminder-settings", {
      cookie: adminCookie,
      payload: { inactivityDays: 3, expiryReminders: true },
    });
    at(start, 4);
    await sweepBoth();
    const tokenOf = (email: string) =>
      new URL(
        /http:\/\/localhost:5000\/unsubscribe\?token=[\w-]+/.exec(textOf(mailsTo(email)[0]!))![0],
      ).searchParams.get("token")!;
    const cyToken = tokenOf(cy.email);
    const diToken = tokenOf(di.email);
    expect(cyToken).not.toBe(diToken);

    for (const token of ["", "x".repeat(101)]) {
      const bad = await call(ctx, "POST", "/api/reminders/unsubscribe", { payload: { token } });
      expect(bad.statusCode).toBe(400);
    }
    // Another token of the same shape: its first character changed (a random token may
    // itself end in the characters a fixed suffix would put there).
    const wrong = await call(ctx, "POST", "/api/reminders/unsubscribe", {
      payload: { token: `${cyToken.startsWith("A") ? "B" : "A"}${cyToken.slice(1)}` },
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe(REMINDER_MESSAGES.badUnsubscribeLink);

    // The page's button, signed out; twice is fine.
    for (let i = 0; i < 2; i++) {
      const ok = await call(ctx, "POST", "/api/reminders/unsubscribe", {
        payload: { token: cyToken },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toEqual({ unsubscribed: true });
    }
    // A mail program's one-click POST (RFC 8058), and the page for one that opens the link.
    const oneClickUrl = `/api/reminders/unsubscribe/one-click?token=${encodeURIComponent(diToken)}`;
    const opened = await ctx.app.inject({ method: "GET", url: oneClickUrl });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(`/unsubscribe?token=${encodeURIComponent(diToken)}`);
    const oneClick = await ctx.app.inject({
      method: "POST",
      url: oneClickUrl,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    const badOneClick = await ctx.app.inject({
      method: "POST",
      url: "/api/reminders/unsubscribe/one-click?token=nobody",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(badOneClick.statusCode).toBe(404);

    // Active again, then inactive again: neither hears from us any more.
    await completeViaApi(ctx, cy.cookie, cy.id, course, 1);
    await completeViaApi(ctx, di.cookie, di.id, course, 1);
    at(start, 30);
    await sweepBoth();
    expect(mailsTo(cy.email)).toHaveLength(1);
    expect(mailsTo(di.email)).toHaveLength(1);
  });
});
