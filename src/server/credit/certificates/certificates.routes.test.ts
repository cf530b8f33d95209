import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  CERTIFICATE_CODE_INPUT_MAX,
  type Certificate,
  type Course,
  formatCertificateCode,
  type Transcript,
} from "../../../contract";
import { courses } from "../../catalogue/courses/courses.table";
import { users } from "../../people/auth/auth.table";
import { creditOffer, creditType } from "../../testing/credit-claim";
import { expectErrorBody, expectFieldRefused } from "../../testing/errors";
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
import { newCertificateCode } from "./certificate-code";
import { certificateMails } from "./certificate-mails.table";
import { certificates } from "./certificates.table";

describe("certificates", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  let adminCookie: string;
  let learner: Awaited<ReturnType<typeof quickLearner>>;
  let learnerCookie: string;
  let course: Course;

  beforeEach(async () => {
    const admin = await quickAdmin(ctx);
    adminCookie = await signInAs(ctx, admin);
    learner = await quickLearner(ctx, { name: "Ada Lovelace" });
    learnerCookie = await signInAs(ctx, learner);
    course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: 2,
      title: "Clinical Ethics",
    });
    const settings = await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: creditOffer(
        [
          creditType({
            name: "CME credits",
            amount: 2.5,
            accreditingBody: "State Medical Board",
            claimStep: null,
          }),
        ],
        { "State Medical Board": "PN-1234" },
      ),
    });
    expect(settings.statusCode, settings.body).toBe(200);
  });

  async function completeCourse(): Promise<Certificate> {
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    await completeViaApi(ctx, learnerCookie, learner.id, course, course.modules.length);
    const mine = await call(ctx, "GET", "/api/certificates/mine", { cookie: learnerCookie });
    expect(mine.statusCode, mine.body).toBe(200);
    const list = mine.json() as Certificate[];
    expect(list).toHaveLength(1);
    return list[0]!;
  }

  const verify = (code: string) =>
    call(ctx, "GET", `/api/certificates/verify/${encodeURIComponent(code)}`);

  describe("issuing", () => {
    it("issues one certificate with a snapshot when the last module is completed", async () => {
      await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      await completeViaApi(ctx, learnerCookie, learner.id, course, 1);
      expect(await ctx.database.db.select().from(certificates)).toHaveLength(0);
      await completeViaApi(ctx, learnerCookie, learner.id, course, 2);
      const rows = await ctx.database.db.select().from(certificates);
      expect(rows).toHaveLength(1);
      const cert = rows[0]!;
      expect(cert).toMatchObject({
        userId: learner.id,
        courseId: course.id,
        learnerName: "Ada Lovelace",
        courseTitle: "Clinical Ethics",
        courseCategory: course.category,
        durationHours: course.duration,
        creditHours: 2.5,
        creditType: "CME credits",
        accreditingBody: "State Medical Board",
        providerNumber: "PN-1234",
        issuerName: "Credo",
        revokedAt: null,
      });
      expect(cert.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{32}$/);
      // Completing a module again (a retry) issues nothing new.
      await completeViaApi(ctx, learnerCookie, learner.id, course, 2);
      expect(await ctx.database.db.select().from(certificates)).toHaveLength(1);
    });

    it("lists the learner's certificates with the verification address from PUBLIC_URL", async () => {
      const cert = await completeCourse();
      expect(cert.verifyUrl).toBe(`http://localhost:5000/verify/${cert.code}`);
      expect(cert.status).toBe("valid");
      const admin = await call(ctx, "GET", "/api/certificates/mine", { cookie: adminCookie });
      expect(admin.statusCode).toBe(403);
      expect((await call(ctx, "GET", "/api/certificates/mine")).statusCode).toBe(401);
    });

    it("codes are unique and carry 160 random bits", () => {
      const codes = new Set(Array.from({ length: 2000 }, newCertificateCode));
      expect(codes.size).toBe(2000);
      for (const code of codes) expect(code).toHaveLength(32);
    });

    it("never issues a certificate on read: only the completion that earns it does", async () => {
      await enrollViaApi(ctx, adminCookie, learner.id, course.id);
      await completeViaApi(ctx, learnerCookie, learner.id, course, 2);
      // A completed enrollment without its certificate row (truncate skips the row trigger).
      await ctx.database.db.execute(sql`truncate certificates`);
      const mine = await call(ctx, "GET", "/api/certificates/mine", { cookie: learnerCookie });
      expect(mine.json()).toEqual([]);
      const transcript = await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, {
        cookie: learnerCookie,
      });
      expect(transcript.statusCode, transcript.body).toBe(200);
      expect(await ctx.database.db.select().from(certificates)).toEqual([]);
    });
  });

  describe("immutability", () => {
    it("later edits of the course and the learner's name do not change an issued certificate", async () => {
      const cert = await completeCourse();
      const { db } = ctx.database;
      await db
        .update(courses)
        .set({ title: "Renamed", duration: 99 })
        .where(eq(courses.id, course.id));
      const settings = await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
        cookie: adminCookie,
        payload: creditOffer([creditType({ name: "CE", amount: 10, accreditingBody: "" })]),
      });
      expect(settings.statusCode, settings.body).toBe(200);
      await db.update(users).set({ name: "Ada King" }).where(eq(users.id, learner.id));

      const verified = (await verify(cert.code)).json().certificate;
      expect(verified).toMatchObject({
        learnerName: "Ada Lovelace",
        courseTitle: "Clinical Ethics",
        durationHours: course.duration,
        credits: [
          expect.objectContaining({
            name: "CME credits",
            amount: 2.5,
            text: "2.5 CME credits",
            accreditingBody: "State Medical Board",
            providerNumber: "PN-1234",
          }),
        ],
        creditHours: 2.5,
        creditType: "CME credits",
        accreditingBody: "State Medical Board",
        providerNumber: "PN-1234",
      });
      const transcript = (
        await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie: learnerCookie })
      ).json() as Transcript;
      expect(transcript.entries[0]).toMatchObject({
        courseTitle: "Clinical Ethics",
        creditHours: 2.5,
      });
    });

    it("the database refuses to change or delete a certificate's snapshot", async () => {
      const cert = await completeCourse();
      const { db } = ctx.database;
      await expect(
        db.update(certificates).set({ learnerName: "Mallory" }).where(eq(certificates.id, cert.id)),
      ).rejects.toThrow();
      await expect(db.delete(certificates).where(eq(certificates.id, cert.id))).rejects.toThrow();
      const [row] = await db.select().from(certificates);
      expect(row!.learnerName).toBe("Ada Lovelace");
    });

    it("stays verifiable after the learner and the course are deleted", async () => {
      const cert = await completeCourse();
      expect(
        (await call(ctx, "DELETE", `/api/users/learners/${learner.id}`, { cookie: adminCookie }))
          .statusCode,
      ).toBe(200);
      expect(
        (await call(ctx, "DELETE", `/api/courses/${course.id}`, { cookie: adminCookie }))
          .statusCode,
      ).toBe(200);
      const res = await verify(cert.code);
      expect(res.statusCode).toBe(200);
      expect(res.json().certificate).toMatchObject({
        learnerName: "Ada Lovelace",
        status: "valid",
      });
    });
  });

  describe("verification", () => {
    it("answers a valid code publicly, with the certificate and nothing else about the learner", async () => {
      const cert = await completeCourse();
      const res = await verify(cert.code);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.certificate).toMatchObject({
        code: cert.code,
        status: "valid",
        learnerName: "Ada Lovelace",
        courseTitle: "Clinical Ethics",
        issuerName: "Credo",
        issuerLogoUrl: null,
        revokedAt: null,
      });
      expect(Object.keys(body.certificate).sort()).toEqual(
        [
          "accreditingBody",
          "code",
          "completedAt",
          "courseCategory",
          "courseTitle",
          "credit",
          "credits",
          "creditHours",
          "creditType",
          "durationHours",
          "examPassedAt",
          "examScore",
          "issuedAt",
          "issuerLogoUrl",
          "issuerName",
          "learnerName",
          "providerNumber",
          "revokedAt",
          "revokedReason",
          "status",
          "verifyUrl",
        ].sort(),
      );
      expect(res.body).not.toContain(learner.email);
      expect(res.body).not.toContain(learner.id);
      // Read as typed by a person: lower case, with dashes, O for 0.
      const typed = cert.code
        .toLowerCase()
        .replace(/(.{4})/g, "$1-")
        .replace(/0/g, "o");
      expect((await verify(typed)).json().certificate.code).toBe(cert.code);
    });

    it("shows a revoked certificate as revoked, with reason and date", async () => {
      const cert = await completeCourse();
      const revoke = await call(ctx, "POST", `/api/certificates/${cert.id}/revoke`, {
        cookie: adminCookie,
        payload: { reason: "Attendance records were falsified." },
      });
      expect(revoke.statusCode, revoke.body).toBe(200);
      const body = (await verify(cert.code)).json();
      expect(body.certificate).toMatchObject({
        status: "revoked",
        revokedReason: "Attendance records were falsified.",
      });
      expect(Date.parse(body.certificate.revokedAt)).not.toBeNaN();
    });

    it("answers an unknown code exactly like a random or malformed one", async () => {
      await completeCourse();
      const unknown = await verify(newCertificateCode());
      const random = await verify(newCertificateCode());
      const malformed = await verify("not a code at all!");
      const typed = await verify(`${formatCertificateCode(newCertificateCode())}  `);
      for (const res of [unknown, random, malformed, typed]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({
          message: "No certificate matches this code.",
          code: "certificates.not_found",
        });
        expect(res.headers["content-type"]).toBe(unknown.headers["content-type"]);
      }
    });

    it("tells text too long for any code that it is not a code, never that the service failed", async () => {
      for (const text of ["X".repeat(CERTIFICATE_CODE_INPUT_MAX + 1), "X".repeat(100)]) {
        const res = await verify(text);
        expect(res.statusCode, `${text.length} characters`).toBe(400);
        expect(expectFieldRefused(res, "code")).toEqual({
          message: "This is not a valid certificate code: a code has 32 letters and digits.",
          code: "validation.invalid_params",
          path: "code",
        });
      }
      // Past what an address may carry, the router refuses it as too long, in the same shape.
      const huge = await verify("X".repeat(5000));
      expect(huge.statusCode).toBe(414);
      expect(expectErrorBody(huge).code).toBe("request.address_too_long");
    });
  });

  describe("verification rate limit", () => {
    it("limits each address to 60 checks a minute, so codes cannot be walked", async () => {
      const check = () =>
        ctx.app.inject({
          method: "GET",
          url: `/api/certificates/verify/${newCertificateCode()}`,
          remoteAddress: "203.0.113.77",
        });
      for (let i = 0; i < 60; i++) expect((await check()).statusCode).toBe(404);
      const limited = await check();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toHaveProperty("message");
    });
  });

  describe("revocation", () => {
    it("is for administrators only, needs a reason and happens once", async () => {
      const cert = await completeCourse();
      const url = `/api/certificates/${cert.id}/revoke`;
      const asLearner = await call(ctx, "POST", url, {
        cookie: learnerCookie,
        payload: { reason: "Because" },
      });
      expect(asLearner.statusCode).toBe(403);
      const noReason = await call(ctx, "POST", url, {
        cookie: adminCookie,
        payload: { reason: "  " },
      });
      expect(noReason.statusCode).toBe(400);
      expect(expectFieldRefused(noReason, "reason").message).toBe(
        "Give a reason of at least 3 characters",
      );
      expect((await verify(cert.code)).json().certificate.status).toBe("valid");

      const first = await call(ctx, "POST", url, {
        cookie: adminCookie,
        payload: { reason: "Issued in error" },
      });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ status: "revoked", revokedReason: "Issued in error" });
      const again = await call(ctx, "POST", url, {
        cookie: adminCookie,
        payload: { reason: "Other" },
      });
      expect(again.statusCode).toBe(409);
      expect((await verify(cert.code)).json().certificate.revokedReason).toBe("Issued in error");
      const missing = await call(ctx, "POST", "/api/certificates/nope/revoke", {
        cookie: adminCookie,
        payload: { reason: "Issued in error" },
      });
      expect(missing.statusCode).toBe(404);
    });
  });

  describe("revocation reaching the learner", () => {
    const outbox = () => outboxMessages(join(ctx.dataDir, "outbox"));
    const mailsTo = (email: string) =>
      outbox().filter((m) => m.mime.headers.to?.includes(email.toLowerCase()));
    /** Waits for the commit's announcement to reach this process, then for the send it woke. */
    async function delivered() {
      await ctx.database.changes.sync();
      await ctx.app.mailJobs.certificateMailsIdle();
    }
    const reason = "Attendance records were falsified.";

    it("shows the learner's reads revoked and mails them once, with the course and reason", async () => {
      const saved = await call(ctx, "PUT", "/api/admin/organisation", {
        cookie: adminCookie,
        payload: { name: "", logoPath: null, address: "", contactEmail: "", dateFormat: "iso" },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const other = await quickLearner(ctx, { name: "Grace Hopper" });
      const otherCookie = await signInAs(ctx, other);
      await enrollViaApi(ctx, adminCookie, other.id, course.id);
      const cert = await completeCourse();
      await delivered();
      expect(mailsTo(learner.email).map((m) => m.mime.headers.subject)).toEqual([
        "Your certificate for Clinical Ethics",
      ]);

      const revoke = await call(ctx, "POST", `/api/certificates/${cert.id}/revoke`, {
        cookie: adminCookie,
        payload: { reason },
      });
      expect(revoke.statusCode, revoke.body).toBe(200);
      const revokedAt = (revoke.json() as Certificate).revokedAt!;
      const revokedOn = revokedAt.slice(0, 10);

      // The dashboard's Certificates tab and the transcript read it revoked at once.
      const mine = await call(ctx, "GET", "/api/certificates/mine", { cookie: learnerCookie });
      expect(mine.json()).toEqual([
        expect.objectContaining({
          id: cert.id,
          status: "revoked",
          revokedAt,
          revokedReason: reason,
        }),
      ]);
      const transcript = (
        await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie: learnerCookie })
      ).json() as Transcript;
      expect(transcript.entries[0]!.certificate).toMatchObject({
        id: cert.id,
        status: "revoked",
        revokedAt,
        revokedReason: reason,
      });
      // Its credit leaves the totals; the course stays completed, as it was.
      expect(transcript.totals).toMatchObject({ completed: 1, credits: [] });
      const pdf = await call(ctx, "GET", `/api/learners/${learner.id}/transcript.pdf`, {
        cookie: learnerCookie,
      });
      const printed = (await pdfText(pdf.rawPayload)).replace(/\s+/g, " ");
      expect(printed).toContain(`REVOKED`);
      expect(printed).toContain(`Revoked on ${revokedOn}. Reason: ${reason}`);
      expect(printed).toContain("no credit earned");
      const csv = await call(ctx, "GET", `/api/learners/${learner.id}/transcript.csv`, {
        cookie: learnerCookie,
      });
      expect(csv.body).toContain(`revoked,${revokedAt},${reason}`);

      await delivered();
      const mails = mailsTo(learner.email);
      expect(mails).toHaveLength(2);
      const { mime } = mails[1]!;
      expect(mime.headers.subject).toBe("Your certificate for Clinical Ethics was revoked");
      const parts = leafParts(mime);
      const text = parts.find((p) => p.contentType.startsWith("text/plain"))!.body.toString();
      const html = parts.find((p) => p.contentType.startsWith("text/html"))!.body.toString();
      expect(text).toContain(`Your certificate for Clinical Ethics was revoked on ${revokedOn}`);
      expect(text).toContain(`Reason: ${reason}`);
      expect(text).toContain(cert.verifyUrl);
      expect(html).toContain("Reason: Attendance records were falsified.");
      expect(parts.some((p) => p.contentType.startsWith("application/pdf"))).toBe(false);
      const queued = await ctx.database.db
        .select()
        .from(certificateMails)
        .where(eq(certificateMails.certificateId, cert.id));
      expect(queued.map((m) => [m.kind, m.attempts, m.sentAt !== null]).sort()).toEqual([
        ["issued", 1, true],
        ["revoked", 1, true],
      ]);

      // A second revocation is refused: the first reason stands and nothing more is sent.
      const again = await call(ctx, "POST", `/api/certificates/${cert.id}/revoke`, {
        cookie: adminCookie,
        payload: { reason: "Another reason" },
      });
      expect(again.statusCode).toBe(409);
      await delivered();
      expect((await ctx.app.mailJobs.sweep()).certificateMails).toBe(0);
      expect(mailsTo(learner.email)).toHaveLength(2);
      const [after] = await ctx.database.db
        .select()
        .from(certificates)
        .where(eq(certificates.id, cert.id));
      expect(after).toMatchObject({ revokedReason: reason });
      expect(after!.revokedAt!.toISOString()).toBe(revokedAt);

      // Another learner of the course sees nothing of it and is sent nothing.
      const theirs = await call(ctx, "GET", "/api/certificates/mine", { cookie: otherCookie });
      expect(theirs.json()).toEqual([]);
      const theirTranscript = await call(ctx, "GET", `/api/learners/${other.id}/transcript`, {
        cookie: otherCookie,
      });
      expect(theirTranscript.body).not.toContain(reason);
      expect(theirTranscript.body).not.toContain(cert.id);
      expect(mailsTo(other.email)).toHaveLength(0);
    });
  });

  describe("downloads", () => {
    it("serves the certificate PDF to its learner and administrators only", async () => {
      const cert = await completeCourse();
      const res = await call(ctx, "GET", `/api/certificates/${cert.id}/pdf`, {
        cookie: learnerCookie,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(res.headers["content-disposition"]).toContain("Certificate-Clinical-Ethics.pdf");
      expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
      expect(await pdfText(res.rawPayload)).toContain(
        `Certificate no. ${formatCertificateCode(cert.code)}`,
      );
      expect(await pdfText(res.rawPayload)).toContain("Ada Lovelace");
      const other = await quickLearner(ctx);
      const otherCookie = await signInAs(ctx, other);
      const denied = await call(ctx, "GET", `/api/certificates/${cert.id}/pdf`, {
        cookie: otherCookie,
      });
      expect(denied.statusCode).toBe(404);
      const admin = await call(ctx, "GET", `/api/certificates/${cert.id}/pdf`, {
        cookie: adminCookie,
      });
      expect(admin.statusCode).toBe(200);
    });
    it("never serves a kept PDF of a certificate revoked since", async () => {
      const cert = await completeCourse();
      const download = () =>
        call(ctx, "GET", `/api/certificates/${cert.id}/pdf`, { cookie: learnerCookie });
      const first = await download();
      expect(first.statusCode).toBe(200);
      expect(await pdfText(first.rawPayload)).not.toContain("REVOKED");

      const revoke = await call(ctx, "POST", `/api/certificates/${cert.id}/revoke`, {
        cookie: adminCookie,
        payload: { reason: "Attendance records were falsified." },
      });
      expect(revoke.statusCode, revoke.body).toBe(200);
      const revoked = await download();
      expect(await pdfText(revoked.rawPayload)).toContain("REVOKED");
    });
  });

  describe("transcripts", () => {
    it("lists every course with dates, hours, credit and certificate code", async () => {
      const second = await buildPublishedCourse(ctx, adminCookie, {
        video: await videoPath(adminCookie),
        modules: 2,
        title: "Second Course",
      });
      const cert = await completeCourse();
      await enrollViaApi(ctx, adminCookie, learner.id, second.id);
      await completeViaApi(ctx, learnerCookie, learner.id, second, 1);

      const res = await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, {
        cookie: learnerCookie,
      });
      expect(res.statusCode, res.body).toBe(200);
      const t = res.json() as Transcript;
      expect(t.learner).toEqual({ id: learner.id, name: "Ada Lovelace", email: learner.email });
      expect(t.totals).toEqual({
        courses: 2,
        completed: 1,
        credits: [
          {
            catalogueTypeId: expect.any(String),
            name: "CME credits",
            amount: 2.5,
            text: "2.5 CME credits",
          },
        ],
      });
      expect(t.entries.map((e) => [e.courseTitle, e.status, e.progress])).toEqual([
        ["Clinical Ethics", "completed", 100],
        ["Second Course", "in-progress", 50],
      ]);
      const [done, ongoing] = t.entries;
      expect(done).toMatchObject({
        creditHours: 2.5,
        creditType: "CME credits",
        accreditingBody: "State Medical Board",
        providerNumber: "PN-1234",
        durationHours: course.duration,
        certificate: { id: cert.id, code: cert.code, status: "valid" },
      });
      expect(done!.enrolledAt).not.toBeNull();
      expect(done!.completedAt).toBe(cert.completedAt);
      expect(ongoing!.certificate).toBeNull();
      expect(ongoing!.completedAt).toBeNull();

      const csv = await call(ctx, "GET", `/api/learners/${learner.id}/transcript.csv`, {
        cookie: learnerCookie,
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(csv.body).toContain("Clinical Ethics,Database");
      expect(csv.body).toContain(cert.code.slice(0, 4));
      expect(csv.body).toContain(cert.verifyUrl);
      // Every moment in ISO 8601, and each column holds what its name says.
      const lines = csv.body.replace(/^\uFEFF/, "").split("\r\n");
      expect(lines.find((l) => l.startsWith("Generated,"))).toMatch(
        /^Generated,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/,
      );
      const header = lines.find((l) => l.startsWith("Course,"))!.split(",");
      expect(header).toContain("Exam passed at");
      expect(header).not.toContain("Exam passed");
      const row = lines.find((l) => l.startsWith("Clinical Ethics,"))!.split(",");
      for (const column of ["Enrolled", "Completed"]) {
        expect(row[header.indexOf(column)], column).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
      }
      const pdf = await call(ctx, "GET", `/api/learners/${learner.id}/transcript.pdf`, {
        cookie: adminCookie,
      });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
      const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, " ");
      expect(text).toContain("Transcript of continuing education");
      expect(text).not.toContain("Academic transcript");
      expect(text).toContain("2 courses · 1 completed");
    });

    it("a revoked certificate's credit no longer counts", async () => {
      const cert = await completeCourse();
      await call(ctx, "POST", `/api/certificates/${cert.id}/revoke`, {
        cookie: adminCookie,
        payload: { reason: "Issued in error" },
      });
      const t = (
        await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie: adminCookie })
      ).json() as Transcript;
      expect(t.totals.credits).toEqual([]);
      expect(t.entries[0]!.certificate).toMatchObject({
        status: "revoked",
        revokedReason: "Issued in error",
      });
    });

    it("a learner cannot read another learner's transcript", async () => {
      const other = await quickLearner(ctx);
      for (const suffix of ["", ".csv", ".pdf"]) {
        const res = await call(ctx, "GET", `/api/learners/${other.id}/transcript${suffix}`, {
          cookie: learnerCookie,
        });
        expect(res.statusCode).toBe(403);
        expect(res.body).not.toContain(other.email);
      }
      expect((await call(ctx, "GET", `/api/learners/${other.id}/transcript`)).statusCode).toBe(401);
      const admin = await call(ctx, "GET", `/api/learners/${other.id}/transcript`, {
        cookie: adminCookie,
      });
      expect(admin.statusCode).toBe(200);
      const missing = await call(ctx, "GET", "/api/learners/nobody/transcript", {
        cookie: adminCookie,
      });
      expect(missing.statusCode).toBe(404);
    });
  });
});
