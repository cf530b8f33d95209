import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { courses } from "../catalogue/courses/courses.table";
import { questionBody } from "../testing/assessments";
import { createCourse, postCourse, validModule } from "../testing/courses";
import { expectErrorBody } from "../testing/errors";
import {
  buildPublishedCourse,
  nextModuleNumber,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../testing/learning";
import { useTestApp } from "../testing/test-app";
import { idempotencyKeys } from "./idempotency-keys.table";

const KEY = "form-open-1";

/** A refusal with this status and code. */
function expectRefused(
  response: { statusCode: number; json(): unknown },
  status: number,
  code: string,
) {
  expect(response.statusCode).toBe(status);
  expect(expectErrorBody(response).code).toBe(code);
}

describe("idempotent creation (Idempotency-Key)", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  const signedInAdmin = async () => signInAs(ctx, await quickAdmin(ctx));
  const courseCount = async () => (await ctx.database.db.select().from(courses)).length;
  const postKeyed = (cookie: string, key: string, overrides: Record<string, unknown> = {}) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/courses",
      headers: { cookie, "idempotency-key": key },
      payload: {
        title: "Intro to SQL",
        description: "Tables, joins and indexes.",
        category: "Database",
        duration: 3,
        thumbnail: "",
        modules: [],
        ...overrides,
      },
    });

  it("answers a repeat with the first answer and makes one course", async () => {
    const admin = await signedInAdmin();
    const first = await postKeyed(admin, KEY);
    expect(first.statusCode, first.body).toBe(201);
    const repeat = await postKeyed(admin, KEY);
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json()).toEqual(first.json());
    expect(repeat.headers["idempotent-replayed"]).toBe("true");
    expect(await courseCount()).toBe(1);
  });

  it("makes one course of a double click sent at once", async () => {
    const admin = await signedInAdmin();
    const [a, b] = await Promise.all([postKeyed(admin, KEY), postKeyed(admin, KEY)]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json()).toEqual(b.json());
    expect(await courseCount()).toBe(1);
  });

  it("refuses the same key with another body and creates nothing", async () => {
    const admin = await signedInAdmin();
    expect((await postKeyed(admin, KEY)).statusCode).toBe(201);
    const other = await postKeyed(admin, KEY, { title: "Advanced SQL" });
    expectRefused(other, 409, "request.idempotency_key_reused");
    expect(other.json().message).toBe(
      "This form was already sent with other details. Close it and open it again to send these.",
    );
    expect(await courseCount()).toBe(1);
  });

  it("keeps each user's keys apart", async () => {
    const [one, two] = [await signedInAdmin(), await signedInAdmin()];
    const a = await postKeyed(one, KEY);
    const b = await postKeyed(two, KEY);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().id).not.toBe(b.json().id);
    expect(await courseCount()).toBe(2);
  });

  it("frees the key of a refused request, so the corrected form goes with it", async () => {
    const admin = await signedInAdmin();
    const refused = await postKeyed(admin, KEY, {
      thumbnail: "/objects/uploads/missing-object-0001",
    });
    expect(refused.statusCode).toBe(400);
    const corrected = await postKeyed(admin, KEY);
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(await courseCount()).toBe(1);
  });

  it("creates as before without the header", async () => {
    const admin = await signedInAdmin();
    expect((await postCourse(ctx, admin)).statusCode).toBe(201);
    expect((await postCourse(ctx, admin)).statusCode).toBe(201);
    expect(await courseCount()).toBe(2);
  });

  it("refuses a key that is not 1 to 255 visible characters", async () => {
    const admin = await signedInAdmin();
    expectRefused(await postKeyed(admin, "x".repeat(256)), 400, "validation.invalid_headers");
    expectRefused(await postKeyed(admin, "two words"), 400, "validation.invalid_headers");
    expect(await courseCount()).toBe(0);
  });

  it("forgets keys after a day and sweeps them away", async () => {
    const admin = await signedInAdmin();
    const first = await postKeyed(admin, KEY);
    expect((await postKeyed(admin, "another-form")).statusCode).toBe(201);
    const { db } = ctx.database;
    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, "another-form"));
    // The day-old key starts afresh: a second course.
    const later = await postKeyed(admin, "another-form");
    expect(later.statusCode).toBe(201);
    expect(later.json().id).not.toBe(first.json().id);
    // Any new key sweeps the expired ones; the fresh keys stay.
    await db.update(idempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` });
    expect((await postKeyed(admin, "third-form")).statusCode).toBe(201);
    const left = await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys);
    expect(left.map((row) => row.key)).toEqual(["third-form"]);
  });

  it("is documented on the routes that take it, and only there", async () => {
    const document = (await ctx.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const headerOf = (path: string, method: string) =>
      (document.paths[path][method].parameters ?? []).find(
        (p: { in: string; name: string }) => p.in === "header" && p.name === "idempotency-key",
      );
    expect(headerOf("/api/courses", "post")).toMatchObject({ required: false });
    expect(headerOf("/api/courses/{id}/attest", "post")).toBeDefined();
    expect(headerOf("/api/courses/{id}", "put")).toBeUndefined();
    expect(Object.keys(document.paths["/api/courses"].post.responses)).toContain("409");
  });

  it("answers a repeat of every create form with its first answer, and refuses another body", async () => {
    const admin = await signedInAdmin();
    const learner = await quickLearner(ctx);
    const course = await createCourse(ctx, admin);
    const videoUrl = await video(admin);
    const published = await buildPublishedCourse(ctx, admin, { video: videoUrl });
    const [moduleNumber, otherModuleNumber] = [nextModuleNumber(), nextModuleNumber()];
    const body = await ctx.app.inject({
      method: "POST",
      url: "/api/credit-catalogue/bodies",
      headers: { cookie: admin },
      payload: { name: "ANCC", providerNumber: "", minutesPerHour: 60 },
    });
    const creditType = {
      name: "contact hours",
      singularName: "contact hour",
      bodyId: body.json().id,
      accreditationStatement: "",
      designationStatement: "",
      profession: "Nursing",
      regulators: [],
      fieldsOfStudyRequired: false,
      licenceRequired: false,
    };
    const forms: { url: string; payload: object; other: object; status: number }[] = [
      {
        url: `/api/courses/${course.id}/modules`,
        payload: validModule(videoUrl, moduleNumber),
        other: validModule(videoUrl, otherModuleNumber),
        status: 201,
      },
      {
        url: "/api/credit-catalogue/bodies",
        payload: { name: "ACPE", providerNumber: "", minutesPerHour: 60 },
        other: { name: "ACCME", providerNumber: "", minutesPerHour: 60 },
        status: 201,
      },
      {
        url: "/api/credit-catalogue/types",
        payload: creditType,
        other: { ...creditType, name: "nursing hours" },
        status: 201,
      },
      {
        url: "/api/auth/register",
        payload: { email: "new.learner@example.com", name: "New Learner" },
        other: { email: "other.learner@example.com", name: "Other Learner" },
        status: 201,
      },
      {
        url: "/api/enrollments",
        payload: { userId: learner.id, courseId: published.id },
        other: { userId: learner.id, courseId: "another-course" },
        status: 201,
      },
      {
        url: `/api/courses/${course.id}/questions`,
        payload: questionBody(1),
        other: questionBody(2),
        status: 201,
      },
    ];
    for (const [i, form] of forms.entries()) {
      const send = (payload: object) =>
        ctx.app.inject({
          method: "POST",
          url: form.url,
          headers: { cookie: admin, "idempotency-key": `form-${i}` },
          payload,
        });
      const first = await send(form.payload);
      expect(first.statusCode, `${form.url}: ${first.body}`).toBe(form.status);
      const repeat = await send(form.payload);
      expect([repeat.statusCode, repeat.json()], form.url).toEqual([form.status, first.json()]);
      expectRefused(await send(form.other), 409, "request.idempotency_key_reused");
    }
    // One module, one question, one enrollment: each repeat made nothing.
    const lists = await ctx.app.inject({
      method: "GET",
      url: `/api/courses/${course.id}`,
      headers: { cookie: admin },
    });
    expect(lists.json().modules).toHaveLength(1);
    const questions = await ctx.app.inject({
      method: "GET",
      url: `/api/courses/${course.id}/questions`,
      headers: { cookie: admin },
    });
    expect(questions.json()).toHaveLength(1);
  });
});
