import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
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
import { pdfText } from "../../testing/pdf-text";
import { useTestApp } from "../../testing/test-app";
import { certificateMails } from "./certificate-mails.table";
import { certificates } from "./certificates.table";

describe("certificate email", () => {
  const ctx = useTestApp({ PRODUCT_NAME: "Acme Academy" });
  const videoPath = useSharedVideo(ctx);
  const outbox = () => outboxMessages(join(ctx.dataDir, "outbox"));
  const mailsTo = (email: string) =>
    outbox().filter((m) => m.mime.headers.to?.includes(email.toLowerCase()));

  /** Waits for the commit's announcement to reach this process, then for the send it woke. */
  async function delivered() {
    await ctx.database.changes.sync();
    await ctx.app.mailJobs.certificateMailsIdle();
  }

  it("mails the learner the certificate as a PDF with its verification link, after commit", async () => {
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: 2,
      title: "Safe Handling",
    });
    const learner = await quickLearner(ctx, { name: "Zoë Ångström" });
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);

    await completeViaApi(ctx, cookie, learner.id, course, 1);
    await delivered();
    expect(mailsTo(learner.email)).toHaveLength(0);

    await completeViaApi(
      ctx,
      cookie,
      learner.id,
      { ...course, modules: course.modules.slice(1) },
      1,
    );
    await delivered();
    const [certificate] = await ctx.database.db
      .select()
      .from(certificates)
      .where(eq(certificates.userId, learner.id));
    expect(certificate).toBeDefined();
    const mails = mailsTo(learner.email);
    expect(mails).toHaveLength(1);
    const { mime } = mails[0]!;
    expect(mime.headers.subject).toBe("Your certificate for Safe Handling");

    const parts = leafParts(mime);
    const text = parts.find((p) => p.contentType.startsWith("text/plain"))!.body.toString("utf8");
    const html = parts.find((p) => p.contentType.startsWith("text/html"))!.body.toString("utf8");
    const verifyUrl = `http://localhost:5000/verify/${certificate!.code}`;
    expect(text).toContain(verifyUrl);
    expect(text).toContain("Zoë Ångström");
    expect(html).toContain(`href="${verifyUrl}"`);

    const attachment = parts.find((p) => p.contentType.startsWith("application/pdf"))!;
    expect(attachment.headers["content-disposition"]).toContain("attachment");
    expect(attachment.headers["content-disposition"]).toContain("Safe-Handling.pdf");
    expect(attachment.body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const printed = await pdfText(new Uint8Array(attachment.body));
    expect(printed).toContain("Zoë Ångström");
    expect(printed).toContain("Safe Handling");

    const [queued] = await ctx.database.db.select().from(certificateMails);
    expect(queued).toMatchObject({ certificateId: certificate!.id, attempts: 1, lastError: null });
    expect(queued!.sentAt).toBeInstanceOf(Date);

    // Nothing is sent twice: a sweep finds nothing left.
    expect((await ctx.app.mailJobs.sweep()).certificateMails).toBe(0);
    expect(mailsTo(learner.email)).toHaveLength(1);
  });

  it("sends on the next sweep a mail queued by a process that stopped before sending it", async () => {
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      title: "Night Shift",
    });
    const learner = await quickLearner(ctx, { name: "Ida Night" });
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    await delivered();
    expect(mailsTo(learner.email)).toHaveLength(1);

    // As the queue stands when a process stopped between commit and sending: unsent, and
    // taken by a sender long ago.
    await ctx.database.db
      .update(certificateMails)
      .set({ sentAt: null, claimedAt: new Date(Date.now() - 3_600_000) });
    const swept = await ctx.app.mailJobs.sweep();
    expect(swept.certificateMails).toBe(1);
    expect(mailsTo(learner.email)).toHaveLength(2);
    const [row] = await ctx.database.db.select().from(certificateMails);
    expect(row!.attempts).toBe(2);
    expect(row!.sentAt).toBeInstanceOf(Date);
  });

  it("after a stop, the next sweep sends the revocation but not the issue of a revoked certificate", async () => {
    const adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      title: "Night Shift",
    });
    const learner = await quickLearner(ctx, { name: "Ida Night" });
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    const [certificate] = await ctx.database.db
      .select()
      .from(certificates)
      .where(eq(certificates.userId, learner.id));
    const revoked = await call(ctx, "POST", `/api/certificates/${certificate!.id}/revoke`, {
      cookie: adminCookie,
      payload: { reason: "Issued to the wrong learner" },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    await delivered();
    const sentBefore = mailsTo(learner.email).length;

    // As the queue stands when a process stopped between commit and sending both mails.
    await ctx.database.db
      .update(certificateMails)
      .set({ sentAt: null, lastError: null, claimedAt: new Date(Date.now() - 3_600_000) });
    expect((await ctx.app.mailJobs.sweep()).certificateMails).toBe(2);
    const sent = mailsTo(learner.email).slice(sentBefore);
    expect(sent.map((m) => m.mime.headers.subject)).toEqual([
      "Your certificate for Night Shift was revoked",
    ]);
    const rows = await ctx.database.db.select().from(certificateMails);
    expect(rows.every((row) => row.sentAt instanceof Date)).toBe(true);
    expect(rows.find((row) => row.kind === "issued")!.lastError).toMatch(/^not sent/);
  });
});
