import { join } from "node:path";
import { describe, expect, it } from "vitest";
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
import { mailServerDown, mailServerUp, outboxMessages } from "../../testing/mail";
import { useTestApp } from "../../testing/test-app";
import { reminderSends } from "./reminders.table";

const DAY_MS = 86_400_000;
let clock = new Date();

describe("reminder retries", () => {
  const ctx = useTestApp({}, { clock: () => clock });
  const videoPath = useSharedVideo(ctx);
  const outbox = () => join(ctx.dataDir, "outbox");
  const remindersTo = (email: string) =>
    outboxMessages(outbox()).filter(
      (m) => m.mime.headers.to?.includes(email) && /^Continue /.test(m.mime.headers.subject ?? ""),
    );

  async function setUp(name: string) {
    const start = new Date();
    clock = start;
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const course: Course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: 2,
      title: "Fire Safety",
    });
    const learner = await quickLearner(ctx, {
      name,
      email: `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}@example.com`,
    });
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const cookie = await signInAs(ctx, learner);
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const put = await call(ctx, "PUT", "/api/admin/reminder-settings", {
      cookie: adminCookie,
      payload: { inactivityDays: 7, expiryReminders: false },
    });
    expect(put.statusCode).toBe(200);
    // Day 8: the reminder is due, and the mail server refuses it.
    clock = new Date(start.getTime() + 8 * DAY_MS);
    mailServerDown(outbox());
    const first = await ctx.app.mailJobs.sweep();
    expect(first.reminders.failed).toBe(1);
    const [row] = await ctx.database.db.select().from(reminderSends);
    expect(row!.lastError).not.toBeNull();
    mailServerUp(outbox());
    return { start, adminCookie, course, learner, cookie };
  }

  it("does not retry a failed reminder to a learner restricted meanwhile", async () => {
    const { start, adminCookie, learner } = await setUp("Rita Restricted");
    const restricted = await call(ctx, "PATCH", `/api/users/learners/${learner.id}/restrict`, {
      cookie: adminCookie,
    });
    expect(restricted.statusCode).toBe(200);
    // The retry, an hour later.
    clock = new Date(start.getTime() + 8 * DAY_MS + 3_600_000);
    await ctx.app.mailJobs.sweep();
    expect(remindersTo(learner.email)).toHaveLength(0);
  });

  it("does not retry a failed inactivity reminder for a course the learner has since completed", async () => {
    const { start, course, learner, cookie } = await setUp("Carl Completed");
    await completeViaApi(
      ctx,
      cookie,
      learner.id,
      { ...course, modules: course.modules.slice(1) },
      1,
    );
    const own = await call(ctx, "GET", `/api/enrollments/user/${learner.id}`, { cookie });
    expect(own.json()[0].isCompleted).toBe(true);
    clock = new Date(start.getTime() + 8 * DAY_MS + 3_600_000);
    await ctx.app.mailJobs.sweep();
    expect(remindersTo(learner.email)).toHaveLength(0);
  });
});
