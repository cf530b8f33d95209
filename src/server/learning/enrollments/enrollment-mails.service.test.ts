import { join } from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { Course, User } from "../../../contract";
import {
  buildPublishedCourse,
  call,
  enrollViaApi,
  postEnrollment,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { leafParts, outboxMessages } from "../../testing/mail";
import { anotherInstance, useTestApp } from "../../testing/test-app";
import { ENROLLMENT_MAIL_GATHER_MS } from "./enrollment-mails.service";
import { enrollmentMails } from "./enrollment-mails.table";

/** The portal's clock: each test starts it at the real time and moves it past the gathering. */
let clock = new Date();

describe("enrollment email", () => {
  const ctx = useTestApp({ PRODUCT_NAME: "Acme Academy" }, { clock: () => clock });
  const videoPath = useSharedVideo(ctx);
  beforeEach(() => {
    clock = new Date();
  });

  const mailsTo = (email: string) =>
    outboxMessages(join(ctx.dataDir, "outbox")).filter((m) =>
      m.mime.headers.to?.includes(email.toLowerCase()),
    );
  /** A message's plain-text and HTML bodies. */
  const bodiesOf = (mail: ReturnType<typeof mailsTo>[number]) => {
    const parts = leafParts(mail.mime);
    const body = (type: string) =>
      parts.find((p) => p.contentType.startsWith(type))!.body.toString("utf8");
    return { text: body("text/plain"), html: body("text/html") };
  };
  /**
   * Moves the clock past the gathering, once this process heard of every commit and handled
   * the wake-ups they caused (on PostgreSQL they arrive a moment after the commit).
   */
  const gathered = async () => {
    await ctx.database.changes.sync();
    await ctx.app.mailJobs.enrollmentMailsIdle();
    clock = new Date(clock.getTime() + ENROLLMENT_MAIL_GATHER_MS + 1000);
  };
  const sweep = async () => (await ctx.app.mailJobs.sweep()).enrollmentMails;
  const queued = () => ctx.database.db.select().from(enrollmentMails);

  async function setUp(titles: string[]) {
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const video = await videoPath(adminCookie);
    const courses: Course[] = [];
    for (const title of titles)
      courses.push(await buildPublishedCourse(ctx, adminCookie, { video, title }));
    return { adminCookie, courses };
  }

  it("mails the learner once the courses enrolled together are in: one mail naming them, linking to the dashboard", async () => {
    const { adminCookie, courses } = await setUp(["Fire & <Safety>", "First Aid"]);
    const learner = await quickLearner(ctx, { name: "Zoë Ångström" });
    for (const course of courses) await enrollViaApi(ctx, adminCookie, learner.id, course.id);

    // Committed and queued, one row per enrollment; nothing goes out while more may follow.
    expect(await queued()).toHaveLength(2);
    expect(await sweep()).toBe(0);
    expect(mailsTo(learner.email)).toHaveLength(0);

    await gathered();
    expect(await sweep()).toBe(1);
    const mails = mailsTo(learner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.mime.headers.subject).toBe("You are enrolled in 2 courses");
    const { text, html } = bodiesOf(mails[0]!);
    expect(text).toContain("Hello Zoë Ångström");
    expect(text).toContain("  - Fire & <Safety>\n  - First Aid");
    expect(text).toContain("http://localhost:5000/learner");
    expect(text).not.toContain("set your password");
    // Titles come from administrators: escaped in the HTML part.
    expect(html).toContain("<strong>Fire &#38; &#60;Safety&#62;</strong>");
    expect(html).not.toContain("<Safety>");
    expect(html).toContain('href="http://localhost:5000/learner"');
    expect(html).toContain("Go to my courses");

    // Sent once: the rows are marked, and later sweeps send nothing.
    const rows = await queued();
    expect(rows.every((r) => r.sentAt !== null && r.attempts === 1 && r.lastError === null)).toBe(
      true,
    );
    await gathered();
    expect(await sweep()).toBe(0);
    expect(mailsTo(learner.email)).toHaveLength(1);
  });

  it("links a single course's mail to the course page, and tells a learner without a password to set it first", async () => {
    const { adminCookie, courses } = await setUp(["Night Shift"]);
    const register = await call(ctx, "POST", "/api/auth/register", {
      cookie: adminCookie,
      payload: { email: "new.learner@example.com", name: "New Learner" },
    });
    expect(register.statusCode).toBe(201);
    const learner = register.json() as User;
    // The invitation went out at registration, when no course was chosen yet.
    const [invitation] = mailsTo(learner.email);
    expect(bodiesOf(invitation!).text).not.toContain("enrolled");

    await enrollViaApi(ctx, adminCookie, learner.id, courses[0]!.id);
    await gathered();
    expect(await sweep()).toBe(1);
    const mails = mailsTo(learner.email);
    expect(mails).toHaveLength(2);
    const mail = mails.find((m) => m.mime.headers.subject === "You are enrolled in Night Shift")!;
    const link = `http://localhost:5000/course/${courses[0]!.id}`;
    const { text, html } = bodiesOf(mail);
    expect(text).toContain(link);
    expect(text).toContain("First set your password with the link in your invitation email.");
    expect(html).toContain(`href="${link}"`);
    expect(html).toContain("Open the course");
  });

  it("sends nothing for a refused enrollment, nor a second mail for a repeated one", async () => {
    const { adminCookie, courses } = await setUp(["Open Course"]);
    const draft = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      title: "Draft Course",
      draft: true,
    });
    const learner = await quickLearner(ctx);
    const admin = await quickAdmin(ctx);

    const refusals = [
      await postEnrollment(ctx, adminCookie, { userId: learner.id, courseId: draft.id }),
      await postEnrollment(ctx, adminCookie, { userId: admin.id, courseId: courses[0]!.id }),
      await call(ctx, "POST", "/api/enrollments/bulk", {
        cookie: adminCookie,
        payload: { courseId: draft.id, userIds: [learner.id] },
      }),
    ];
    expect(refusals.map((r) => r.statusCode)).toEqual([409, 400, 409]);
    expect(await queued()).toHaveLength(0);

    await enrollViaApi(ctx, adminCookie, learner.id, courses[0]!.id);
    const again = await postEnrollment(ctx, adminCookie, {
      userId: learner.id,
      courseId: courses[0]!.id,
    });
    expect(again.statusCode).toBe(409);
    const bulkAgain = await call(ctx, "POST", "/api/enrollments/bulk", {
      cookie: adminCookie,
      payload: { courseId: courses[0]!.id, userIds: [learner.id] },
    });
    expect(bulkAgain.json()).toEqual({ enrolled: [], alreadyEnrolled: [learner.id] });
    expect(await queued()).toHaveLength(1);

    await gathered();
    expect(await sweep()).toBe(1);
    expect(mailsTo(learner.email)).toHaveLength(1);
    expect(mailsTo(admin.email)).toHaveLength(0);
  });

  it("queues a bulk enrollment in its transaction and mails each learner once, in batches after the answer", async () => {
    const { adminCookie, courses } = await setUp(["Bulk Course"]);
    const learners = [];
    for (let i = 0; i < 25; i++) learners.push(await quickLearner(ctx));
    const userIds = learners.map((l) => l.id);
    const send = () =>
      ctx.app.inject({
        method: "POST",
        url: "/api/enrollments/bulk",
        headers: { cookie: adminCookie, "idempotency-key": "bulk-form-1" },
        payload: { courseId: courses[0]!.id, userIds },
      });
    const response = await send();
    expect(response.statusCode).toBe(200);
    // The same form sent twice (a double click) answers with its first report, and queues nothing more.
    const repeat = await send();
    expect([repeat.headers["idempotent-replayed"], repeat.json()]).toEqual([
      "true",
      response.json(),
    ]);
    // The answer did not wait for any mail.
    expect(await queued()).toHaveLength(25);
    for (const learner of learners) expect(mailsTo(learner.email)).toHaveLength(0);

    await gathered();
    expect(await sweep()).toBe(25);
    for (const learner of learners) {
      const mails = mailsTo(learner.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.mime.headers.subject).toBe("You are enrolled in Bulk Course");
    }
    expect(await sweep()).toBe(0);
  });

  it("sends after a restart what a stopped process left queued", async () => {
    const { adminCookie, courses } = await setUp(["Restart Course"]);
    const learner = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, learner.id, courses[0]!.id);
    // As the queue stands when a process stopped mid-send: taken long ago, never sent.
    await gathered();
    await ctx.database.db
      .update(enrollmentMails)
      .set({ claimedAt: new Date(clock.getTime() - 3_600_000), attempts: 1 })
      .where(eq(enrollmentMails.userId, learner.id));

    const restarted = await anotherInstance(ctx, { clock: () => clock });
    try {
      await restarted.mailJobs.enrollmentMailsIdle();
      expect(mailsTo(learner.email)).toHaveLength(1);
      const [row] = await queued();
      expect(row!.attempts).toBe(2);
      expect(row!.sentAt).toBeInstanceOf(Date);
    } finally {
      await restarted.close();
    }
    expect(await sweep()).toBe(0);
    expect(mailsTo(learner.email)).toHaveLength(1);
  });

  it("names the courses of an imported learner in the invitation, their one mail", async () => {
    const { adminCookie, courses } = await setUp(["Import <One>", "Import Two"]);
    const response = await call(ctx, "POST", "/api/users/learners/import", {
      cookie: adminCookie,
      payload: {
        rows: [
          {
            line: 2,
            name: "Ada Import",
            email: "ada.import@example.com",
            phone: "",
            courseIds: courses.map((c) => c.id),
          },
          { line: 3, name: "Bo Plain", email: "bo.plain@example.com", phone: "", courseIds: [] },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ registered: 2, enrolled: 2 });

    const [invitation] = mailsTo("ada.import@example.com");
    const { text, html } = bodiesOf(invitation!);
    expect(text).toContain(
      "You are enrolled in these courses:\n\n  - Import <One>\n  - Import Two",
    );
    expect(html).toContain("<strong>Import &#60;One&#62;</strong>");
    expect(html).toContain("Set your password");
    expect(bodiesOf(mailsTo("bo.plain@example.com")[0]!).text).not.toContain("enrolled");

    // No enrollment mail besides it.
    expect(await queued()).toHaveLength(0);
    await gathered();
    expect(await sweep()).toBe(0);
    expect(mailsTo("ada.import@example.com")).toHaveLength(1);
  });
});
