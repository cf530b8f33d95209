import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  buildPublishedCourse,
  call,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { mailServerDown, mailServerUp, outboxMessages } from "../../testing/mail";
import { useTestApp } from "../../testing/test-app";
import { ENROLLMENT_MAIL_GATHER_MS } from "./enrollment-mails.service";
import { enrollmentMails } from "./enrollment-mails.table";

let clock = new Date();

describe("the enrollment mail queue with mails that keep failing", () => {
  const ctx = useTestApp({ PRODUCT_NAME: "Acme Academy" }, { clock: () => clock });
  const videoPath = useSharedVideo(ctx);
  beforeEach(() => {
    clock = new Date();
  });
  const outbox = () => join(ctx.dataDir, "outbox");
  const mailsTo = (email: string) =>
    outboxMessages(outbox()).filter((m) => m.mime.headers.to?.includes(email.toLowerCase()));
  const advance = async (ms: number) => {
    await ctx.database.changes.sync();
    await ctx.app.mailJobs.enrollmentMailsIdle();
    clock = new Date(clock.getTime() + ms);
  };

  it.each([19, 20])(
    "still mails a newly enrolled learner after %i learners' mails were refused for good",
    async (stuck) => {
      const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
      const video = await videoPath(adminCookie);
      const course = await buildPublishedCourse(ctx, adminCookie, { video, title: "Course A" });
      const learners = [];
      for (let i = 0; i < stuck; i++) learners.push(await quickLearner(ctx));
      const bulk = await call(ctx, "POST", "/api/enrollments/bulk", {
        cookie: adminCookie,
        payload: { courseId: course.id, userIds: learners.map((l) => l.id) },
      });
      expect(bulk.statusCode).toBe(200);

      // The mail server is down (the outbox cannot be written) for every retry: 8 attempts,
      // 10 minutes apart, after which these 20 mails stay unsent for good.
      mailServerDown(outbox());
      await advance(ENROLLMENT_MAIL_GATHER_MS + 1000);
      for (let i = 0; i < 9; i++) {
        await ctx.app.mailJobs.sweep();
        await advance(11 * 60_000);
      }
      // The mail server is back.
      mailServerUp(outbox());

      // A new learner is enrolled afterwards: their mail must go out.
      const fresh = await quickLearner(ctx);
      await enrollViaApi(ctx, adminCookie, fresh.id, course.id);
      await advance(ENROLLMENT_MAIL_GATHER_MS + 1000);
      await ctx.app.mailJobs.sweep();
      await advance(ENROLLMENT_MAIL_GATHER_MS + 1000);
      await ctx.app.mailJobs.sweep();
      const rows = await ctx.database.db.select().from(enrollmentMails);
      expect(rows.filter((r) => r.sentAt === null && r.attempts === 8)).toHaveLength(stuck);
      expect(mailsTo(fresh.email)).toHaveLength(1);
    },
  );
});
