import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { count, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type BulkEnrollResult,
  type Course,
  LEARNER_IMPORT_BATCH,
  LEARNER_IMPORT_ERRORS,
  LEARNER_IMPORT_MAX_ROWS,
  type LearnerImportPreview,
  type LearnerImportResult,
  type LearnerImportRow,
} from "../../../contract";
import { enrollments } from "../../learning/enrollments/enrollments.table";
import { authTokens, users } from "../../people/auth/auth.table";
import { hashSecret } from "../../people/auth/tokens";
import { auditEvents } from "../../platform/audit/audit.table";
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

describe("learners import and bulk enrollment (administrators)", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);
  const outbox = () => join(ctx.dataDir, "outbox");
  const mails = () => {
    try {
      return readdirSync(outbox()).map((file) => readFileSync(join(outbox(), file), "utf8"));
    } catch {
      return [];
    }
  };

  beforeEach(() => rmSync(outbox(), { recursive: true, force: true }));

  async function asAdmin() {
    const admin = await quickAdmin(ctx);
    return { admin, cookie: await signInAs(ctx, admin) };
  }

  const preview = (cookie: string, csv: string) =>
    call(ctx, "POST", "/api/users/learners/import/preview", { cookie, payload: { csv } });
  const commit = (cookie: string, rows: LearnerImportRow[]) =>
    call(ctx, "POST", "/api/users/learners/import", { cookie, payload: { rows } });

  /** The rows a client sends for the preview's valid rows. */
  const validRows = (result: LearnerImportPreview): LearnerImportRow[] =>
    result.rows
      .filter((row) => row.errors.length === 0)
      .map((row) => ({
        line: row.line,
        name: row.name,
        email: row.email,
        phone: row.phone,
        courseIds: row.courses.map((c) => c.id),
      }));

  async function counts() {
    const { db } = ctx.database;
    const [learners] = await db.select({ n: count() }).from(users).where(eq(users.role, "learner"));
    const [tokens] = await db.select({ n: count() }).from(authTokens);
    const [enrolled] = await db.select({ n: count() }).from(enrollments);
    return { learners: learners?.n, tokens: tokens?.n, enrollments: enrolled?.n };
  }

  async function courses(cookie: string) {
    const video = await videoPath(cookie);
    const sql = await buildPublishedCourse(ctx, cookie, { video, title: "Intro to SQL" });
    const design = await buildPublishedCourse(ctx, cookie, { video, title: "Design Basics" });
    const twin = await buildPublishedCourse(ctx, cookie, { video, title: "Design basics " });
    const draft = await buildPublishedCourse(ctx, cookie, { video, title: "Drafts", draft: true });
    return { sql, design, twin, draft };
  }

  it("previews every kind of problem and writes nothing", async () => {
    const { cookie } = await asAdmin();
    const { sql, design, draft } = await courses(cookie);
    await quickLearner(ctx, { email: "taken@example.com" });
    const before = await counts();
    const csv = [
      // Columns in any order, header names in any case.
      "Email,COURSES,Name,Phone",
      `Ada@Example.com,Intro to SQL | ${design.id},Ada Lovelace,+1 555 0100`,
      "not-an-email,,Bad Email,",
      "noname@example.com,,,",
      `phone@example.com,,Long Phone,${"1".repeat(41)}`,
      "ada@example.com,,Ada Again,",
      "taken@example.com,,Already Here,",
      "ghost@example.com,Underwater Basket Weaving,Ghost,",
      "twin@example.com,design basics,Twin,",
      "draft@example.com,Drafts,Draft,",
      '"grace@example.com","intro to sql;","Grace, Hopper",',
    ].join("\r\n");

    const response = await preview(cookie, `\uFEFF${csv}`);
    expect(response.statusCode).toBe(200);
    const result = response.json() as LearnerImportPreview;
    const byLine = new Map(result.rows.map((row) => [row.line, row]));
    expect(result).toMatchObject({ valid: 2, invalid: 8 });
    expect(byLine.get(2)).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.com",
      phone: "+1 555 0100",
      courses: [
        { id: sql.id, title: "Intro to SQL" },
        { id: design.id, title: "Design Basics" },
      ],
      errors: [],
    });
    expect(byLine.get(3)?.errors).toEqual(["Enter a valid email address"]);
    expect(byLine.get(4)?.errors).toEqual(["Name is required"]);
    expect(byLine.get(5)?.errors).toEqual(["Phone must be at most 40 characters"]);
    expect(byLine.get(6)?.errors).toEqual([LEARNER_IMPORT_ERRORS.duplicateInFile(2)]);
    expect(byLine.get(7)?.errors).toEqual([LEARNER_IMPORT_ERRORS.alreadyRegistered]);
    expect(byLine.get(8)?.errors).toEqual([
      LEARNER_IMPORT_ERRORS.unknownCourse("Underwater Basket Weaving"),
    ]);
    expect(byLine.get(9)?.errors).toEqual([LEARNER_IMPORT_ERRORS.ambiguousCourse("design basics")]);
    expect(byLine.get(10)?.errors).toEqual([
      LEARNER_IMPORT_ERRORS.courseNotEnrollable(
        draft.title,
        "Only published courses can be assigned to learners.",
      ),
    ]);
    expect(byLine.get(11)).toMatchObject({
      name: "Grace, Hopper",
      coursesCell: "intro to sql;",
      courses: [{ id: sql.id }],
      errors: [],
    });

    expect(await counts()).toEqual(before);
    expect(mails()).toEqual([]);

    // Problems of the file as a whole are refused with the reason.
    const missing = await preview(cookie, "name,phone\nAda,1\n");
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/missing: email/);
    // A column named twice: which cell was meant cannot be guessed.
    const twice = await preview(cookie, "name,email,Email \nAda,a@example.com,b@example.com\n");
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({
      code: "learners.invalid_file",
      message: "The header names the column email twice: keep one.",
    });
    const tooMany = await preview(
      cookie,
      `name,email\n${"A,a@example.com\n".repeat(LEARNER_IMPORT_MAX_ROWS + 1)}`,
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toMatch(/more than 10,000 learners/);
    // An unreadable file: the line at fault in words, never the parser's own message.
    const unclosed = await preview(cookie, 'name,email\n"Ada,ada@example.com\n');
    expect(unclosed.statusCode).toBe(400);
    expect(unclosed.json()).toEqual({
      message:
        'The file is not a readable CSV: a quote (") is opened and never closed (the file ends on line 2). Check the quotes of the last rows.',
      code: "learners.invalid_file",
      path: "csv",
    });
    const stray = await preview(
      cookie,
      'name,email\nAda,ada@example.com\nBo "B" Lee,bo@example.com\n',
    );
    expect(stray.json().message).toBe(
      'The file is not a readable CSV: line 3 has a stray quote (") inside a value. Put the whole value in quotes and double the quote inside it, or remove it.',
    );
    const afterQuote = await preview(cookie, 'name,email\n"Ada" Lovelace,ada@example.com\n');
    expect(afterQuote.json().message).toMatch(
      /^The file is not a readable CSV: line 2 has text after a closing quote/,
    );
    const tooLarge = await preview(cookie, "x".repeat(2_000_001));
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().message).toMatch(/too large/);

    // Administrators only.
    const learner = await quickLearner(ctx);
    expect((await preview(await signInAs(ctx, learner), csv)).statusCode).toBe(403);
    expect((await preview("", csv)).statusCode).toBe(401);
  });

  it("registers, enrolls and invites the valid rows; the same rows again register nobody", async () => {
    const { cookie, admin } = await asAdmin();
    const { sql, design, draft } = await courses(cookie);
    const csv = [
      "name,email,phone,courses",
      `Ada Lovelace,ada@example.com,+1 555 0100,Intro to SQL|${design.id}`,
      "Grace Hopper,grace@example.com,,",
      "Alan Turing,alan@example.com,,intro to sql",
    ].join("\n");
    const previewed = (await preview(cookie, csv)).json() as LearnerImportPreview;
    expect(previewed.valid).toBe(3);
    const rows = validRows(previewed);

    // The server checks again: rows a client made up are refused one by one.
    const forged: LearnerImportRow[] = [
      { line: 9, name: "", email: "nobody@example.com", courseIds: [] },
      { line: 10, name: "Draft", email: "draft@example.com", courseIds: [draft.id] },
      { line: 11, name: "Lost", email: "lost@example.com", courseIds: ["no-such-course"] },
      { line: 12, name: "Twice", email: "ADA@example.com", courseIds: [] },
    ];
    const response = await commit(cookie, [...rows, ...forged]);
    expect(response.statusCode).toBe(200);
    const result = response.json() as LearnerImportResult;
    expect(result).toMatchObject({ registered: 3, alreadyRegistered: 0, rejected: 4, enrolled: 3 });
    expect(result.rows.slice(0, 3)).toMatchObject([
      { line: 2, email: "ada@example.com", outcome: "registered", enrolled: 2, invited: true },
      { line: 3, email: "grace@example.com", outcome: "registered", enrolled: 0, invited: true },
      { line: 4, email: "alan@example.com", outcome: "registered", enrolled: 1, invited: true },
    ]);
    expect(result.rows.slice(3).map((r) => [r.outcome, r.errors])).toEqual([
      ["rejected", ["Name is required"]],
      [
        "rejected",
        [
          LEARNER_IMPORT_ERRORS.courseNotEnrollable(
            draft.id,
            "Only published courses can be assigned to learners.",
          ),
        ],
      ],
      [
        "rejected",
        [LEARNER_IMPORT_ERRORS.courseNotEnrollable("no-such-course", "Course not found")],
      ],
      ["rejected", [LEARNER_IMPORT_ERRORS.duplicateInFile(2)]],
    ]);

    // Stored as the single registration stores a learner, with its enrollments.
    const { db } = ctx.database;
    const ada = (await db.select().from(users).where(eq(users.email, "ada@example.com")))[0];
    expect(ada).toMatchObject({
      id: result.rows[0]?.userId,
      name: "Ada Lovelace",
      phone: "+1 555 0100",
      role: "learner",
      status: "active",
      isRegisteredByAdmin: true,
      passwordSetup: false,
      passwordHash: null,
      firebaseUid: null,
    });
    const adaCourses = await db
      .select({ courseId: enrollments.courseId, progress: enrollments.progress })
      .from(enrollments)
      .where(eq(enrollments.userId, ada!.id));
    expect(adaCourses.map((e) => e.courseId).sort()).toEqual([sql.id, design.id].sort());
    expect(await counts()).toEqual({ learners: 3, tokens: 3, enrollments: 3 });
    // Each enrollment is on the audit trail, by the administrator who imported it.
    const audited = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, "enrollment.created"));
    expect(audited).toHaveLength(3);
    expect(audited.every((e) => e.actorId === admin.id)).toBe(true);

    // Each learner got the invitation a single registration sends, with a working token.
    const sent = mails();
    expect(sent).toHaveLength(3);
    const adaMail = sent.find((m) => m.includes("To: ada@example.com"))!;
    expect(adaMail).toContain("Subject: Your Credo account is ready");
    const link = /http:\/\/localhost:5000\/\?setup=1&(?:amp;)?email=[^"\s]+/.exec(
      adaMail.replace(/=\r?\n/g, "").replace(/=3D/g, "="),
    )?.[0];
    const token = new URL(link!.replaceAll("&amp;", "&")).searchParams.get("token")!;
    const stored = await db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, hashSecret(token)));
    expect(stored).toMatchObject([{ userId: ada!.id, kind: "invite", usedAt: null }]);

    // The same rows again (a retried batch) change nothing and say why.
    const again = (await commit(cookie, rows)).json() as LearnerImportResult;
    expect(again).toMatchObject({ registered: 0, alreadyRegistered: 3, rejected: 0, enrolled: 0 });
    expect(again.rows.every((r) => r.errors[0] === LEARNER_IMPORT_ERRORS.alreadyRegistered)).toBe(
      true,
    );
    expect(await counts()).toEqual({ learners: 3, tokens: 3, enrollments: 3 });
    expect(mails()).toHaveLength(3);

    // Two administrators sending the same new rows at once register each learner once.
    const fresh: LearnerImportRow[] = Array.from({ length: 20 }, (_, i) => ({
      line: i + 2,
      name: `Twin ${i}`,
      email: `twin-${i}@example.com`,
      courseIds: [sql.id],
    }));
    const both = await Promise.all([commit(cookie, fresh), commit(cookie, fresh)]);
    const [first, second] = both.map((r) => r.json() as LearnerImportResult);
    expect(first!.registered + second!.registered).toBe(20);
    expect(first!.alreadyRegistered + second!.alreadyRegistered).toBe(20);
    expect(await counts()).toEqual({ learners: 23, tokens: 23, enrollments: 23 });

    // A batch retried with its key (its answer was lost) gets that answer again, word for
    // word; the key with other rows is refused.
    const keyed = (payload: LearnerImportRow[]) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/users/learners/import",
        headers: { cookie, "idempotency-key": "import-batch-0" },
        payload: { rows: payload },
      });
    const newcomer = { line: 2, name: "New Comer", email: "new.comer@example.com", courseIds: [] };
    const answered = await keyed([newcomer]);
    expect(answered.json()).toMatchObject({ registered: 1 });
    expect((await keyed([newcomer])).json()).toEqual(answered.json());
    expect((await keyed([{ ...newcomer, email: "other@example.com" }])).json()).toMatchObject({
      code: "request.idempotency_key_reused",
    });
    expect(await counts()).toMatchObject({ learners: 24 });

    // A call is bounded, and only administrators may make it.
    const tooMany = await commit(
      cookie,
      Array.from({ length: 501 }, (_, i) => ({ ...fresh[0]!, line: i + 2 })),
    );
    expect(tooMany.statusCode).toBe(400);
    const learner = await quickLearner(ctx);
    expect((await commit(await signInAs(ctx, learner), rows)).statusCode).toBe(403);
  });

  it("enrolls selected learners in one course, skipping those already enrolled", async () => {
    const { cookie } = await asAdmin();
    const { sql, draft } = await courses(cookie);
    const [a, b, c] = await Promise.all([quickLearner(ctx), quickLearner(ctx), quickLearner(ctx)]);
    await enrollViaApi(ctx, cookie, c!.id, sql.id);
    const bulk = (payload: object, as = cookie) =>
      call(ctx, "POST", "/api/enrollments/bulk", { cookie: as, payload });

    const response = await bulk({ courseId: sql.id, userIds: [a!.id, b!.id, c!.id, a!.id] });
    expect(response.statusCode).toBe(200);
    expect(response.json() as BulkEnrollResult).toEqual({
      enrolled: [a!.id, b!.id],
      alreadyEnrolled: [c!.id],
    });
    expect((await counts()).enrollments).toBe(3);
    const audited = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, "enrollment.created"));
    expect(audited).toHaveLength(3);

    // Refused as a whole, changing nothing: unknown or non-learner ids, an unpublished
    // course, an empty or too long list, a learner asking.
    const newcomer = await quickLearner(ctx);
    const { admin } = await asAdmin();
    for (const [payload, status] of [
      [{ courseId: sql.id, userIds: [newcomer.id, "nobody"] }, 400],
      [{ courseId: sql.id, userIds: [newcomer.id, admin.id] }, 400],
      [{ courseId: draft.id, userIds: [newcomer.id] }, 409],
      [{ courseId: "no-such-course", userIds: [newcomer.id] }, 404],
      [{ courseId: sql.id, userIds: [] }, 400],
      [{ courseId: sql.id, userIds: Array.from({ length: 501 }, (_, i) => `id-${i}`) }, 400],
    ] as const) {
      const refused = await bulk(payload);
      expect(refused.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(status);
    }
    expect(
      (await bulk({ courseId: sql.id, userIds: [a!.id] }, await signInAs(ctx, a!))).statusCode,
    ).toBe(403);
    expect((await counts()).enrollments).toBe(3);
  });

  it("imports a file of several batches, one transaction each", async () => {
    const { cookie } = await asAdmin();
    const video = await videoPath(cookie);
    const course: Course = await buildPublishedCourse(ctx, cookie, { video, title: "Onboarding" });
    const total = 2 * LEARNER_IMPORT_BATCH + 100;
    const lines = ["name,email,phone,courses"];
    for (let i = 0; i < total; i++) {
      lines.push(`Learner ${i},learner-${i}@example.com,+1 555 ${i},Onboarding`);
    }

    const response = await preview(cookie, lines.join("\n"));
    expect(response.statusCode).toBe(200);
    const previewed = response.json() as LearnerImportPreview;
    expect(previewed).toMatchObject({ valid: total, invalid: 0 });

    const rows = validRows(previewed);
    let registered = 0;
    for (let i = 0; i < rows.length; i += LEARNER_IMPORT_BATCH) {
      const batch = await commit(cookie, rows.slice(i, i + LEARNER_IMPORT_BATCH));
      expect(batch.statusCode).toBe(200);
      registered += (batch.json() as LearnerImportResult).registered;
    }
    expect(registered).toBe(total);
    expect(await counts()).toEqual({ learners: total, tokens: total, enrollments: total });
    expect(readdirSync(outbox())).toHaveLength(total);
    const [enrolled] = await ctx.database.db
      .select({ n: count() })
      .from(enrollments)
      .where(eq(enrollments.courseId, course.id));
    expect(enrolled?.n).toBe(total);
  });
});
