import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Course, CourseCreditInput } from "../../../contract";
import { createCourse, postCourse } from "../../testing/courses";
import { creditOffer, creditType } from "../../testing/credit-claim";
import { refusalText } from "../../testing/errors";
import { call, quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { courseCreditTypes } from "./course-credit.table";
import { courses } from "./courses.table";
import { creditBodies } from "./credit-catalogue.table";

const DEFAULTS = {
  completionPolicy: "manual",
  minWatchPercent: 90,
  minSeatSeconds: null,
  creditTypes: [],
};

describe("course completion settings and credit types", () => {
  const ctx = useTestApp();

  async function setup() {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const course = await createCourse(ctx, cookie);
    const patch = (payload: unknown, who = cookie, id = course.id) =>
      call(ctx, "PATCH", `/api/courses/${id}/settings`, { cookie: who, payload });
    const stored = async () =>
      (await ctx.database.db.select().from(courses).where(eq(courses.id, course.id)))[0]!;
    return { cookie, course, patch, stored };
  }

  it("gives a new course the spec's manual completion and no credit data", async () => {
    const { course, cookie } = await setup();
    expect(course).toMatchObject(DEFAULTS);
    const read = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie });
    expect(read.json()).toMatchObject(DEFAULTS);
  });

  it("changes only the settings a PATCH names, and reads them back", async () => {
    const { patch, course, cookie } = await setup();
    const first = await patch({
      completionPolicy: "verified",
      minWatchPercent: 75,
      minSeatSeconds: 120,
    });
    expect(first.statusCode, first.body).toBe(200);
    const expected = { completionPolicy: "verified", minWatchPercent: 75, minSeatSeconds: 120 };
    expect(first.json()).toMatchObject(expected);
    const second = await patch({ minWatchPercent: 100 });
    expect(second.json()).toMatchObject({ ...expected, minWatchPercent: 100 });
    const back = await patch({ completionPolicy: "manual", minSeatSeconds: null });
    expect(back.json()).toMatchObject({ completionPolicy: "manual", minSeatSeconds: null });
    const list = await call(ctx, "GET", "/api/courses", { cookie });
    expect((list.json() as Course[]).find((c) => c.id === course.id)).toMatchObject({
      minWatchPercent: 100,
    });
  });

  it("keeps the credit types a course offers, each body entered once, and their ids across edits", async () => {
    const { cookie, course } = await setup();
    const put = (payload: CourseCreditInput) =>
      call(ctx, "PUT", `/api/courses/${course.id}/credit`, { cookie, payload });
    const offer = creditOffer(
      [
        creditType({
          name: "contact hours",
          amount: 1,
          accreditingBody: "ANCC",
          licenceRequired: true,
        }),
        creditType({
          name: "ACPE contact hours",
          amount: 1,
          accreditingBody: "ANCC",
          claimStep: null,
        }),
        creditType({ name: "CPE credits", amount: 1.5, accreditingBody: "NASBA", claimStep: 0.5 }),
      ],
      { ANCC: "P-0421", NASBA: "112233" },
    );
    const saved = await put(offer);
    expect(saved.statusCode, saved.body).toBe(200);
    const types = (saved.json() as Course).creditTypes;
    expect(types.map((t) => [t.name, t.amount, t.accreditingBody, t.providerNumber])).toEqual([
      ["contact hours", 1, "ANCC", "P-0421"],
      ["ACPE contact hours", 1, "ANCC", "P-0421"],
      ["CPE credits", 1.5, "NASBA", "112233"],
    ]);
    // One catalogue row per body: the provider number the two ANCC types share is one value.
    expect(await ctx.database.db.select().from(creditBodies)).toHaveLength(2);

    // Renumbering ANCC changes it for both its types; a type kept by id keeps its id.
    const edited = await put({
      bodies: [{ name: "ANCC", providerNumber: "P-9999" }],
      types: [
        { ...offer.types[1]!, id: types[1]!.id },
        { ...offer.types[0]!, id: types[0]!.id, amount: 2 },
      ],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as Course).creditTypes).toMatchObject([
      { id: types[1]!.id, name: "ACPE contact hours", providerNumber: "P-9999" },
      { id: types[0]!.id, name: "contact hours", amount: 2, providerNumber: "P-9999" },
    ]);
    const read = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie });
    expect((read.json() as Course).creditTypes.map((t) => t.name)).toEqual([
      "ACPE contact hours",
      "contact hours",
    ]);
    // No types: no credit.
    expect((await put({ bodies: [], types: [] })).json()).toMatchObject({ creditTypes: [] });
  });

  it("refuses an invalid credit offer with a message and changes nothing", async () => {
    const { cookie, course } = await setup();
    const put = (payload: unknown, who = cookie, id = course.id) =>
      call(ctx, "PUT", `/api/courses/${id}/credit`, { cookie: who, payload });
    expect((await put(creditOffer([creditType({ accreditingBody: "ACCME" })]))).statusCode).toBe(
      200,
    );
    const stored = async () => ({
      types: await ctx.database.db.select().from(courseCreditTypes),
      bodies: await ctx.database.db.select().from(creditBodies),
    });
    const before = await stored();
    const one = (extra: object) => creditOffer([creditType(extra)]);
    const cases: [unknown, number, string][] = [
      [
        one({ name: "x".repeat(101) }),
        400,
        "types.0.name: Credit name must be at most 100 characters",
      ],
      [one({ name: " " }), 400, "types.0.name: Choose a credit type"],
      [one({ amount: 0 }), 400, "types.0.amount: Amount must be greater than 0"],
      [one({ amount: 1.255 }), 400, "types.0.amount: Amount can have at most 2 decimals"],
      [one({ amount: 1001 }), 400, "types.0.amount: Amount must be at most 1000"],
      [one({ amount: 1, claimStep: 0.3 }), 400, "types.0.claimStep: The claim step must divide 1"],
      [one({ amount: 1, claimStep: 2 }), 400, "types.0.claimStep: The claim step must divide 1"],
      [
        { bodies: [], types: [creditType()] },
        400,
        "types.0.accreditingBody: Add ACCME to the accrediting bodies",
      ],
      [
        {
          bodies: [
            { name: "ACCME", providerNumber: "1" },
            { name: "accme", providerNumber: "2" },
          ],
          types: [creditType()],
        },
        400,
        "bodies.1.name: accme is listed twice: enter each body once",
      ],
      [
        { ...creditOffer([creditType(), creditType({ name: "AMA PRA CATEGORY 1 CREDIT™" })]) },
        400,
        "is offered twice",
      ],
      [
        { bodies: [{ name: "ACCME", providerNumber: "x".repeat(101) }], types: [creditType()] },
        400,
        "bodies.0.providerNumber: Provider number must be at most 100 characters",
      ],
      [
        one({ id: "not-a-type-of-this-course" }),
        400,
        "types: A credit type is not one of this course's",
      ],
      [{ ...one({}), extra: true }, 400, ""],
    ];
    for (const [payload, status, message] of cases) {
      const response = await put(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(refusalText(response)).toContain(message);
    }
    const learner = await signInAs(ctx, await quickLearner(ctx));
    expect((await put(one({}), learner)).statusCode).toBe(403);
    expect((await put(one({}), cookie, "no-such-course")).statusCode).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it("refuses invalid values with a message and changes nothing", async () => {
    const { patch, stored } = await setup();
    const before = await stored();
    const cases: [unknown, string][] = [
      [{ completionPolicy: "sometimes" }, "completionPolicy"],
      [{ minWatchPercent: 0 }, "minWatchPercent: Minimum watched share must be between 1 and 100"],
      [{ minWatchPercent: 101 }, "minWatchPercent"],
      [{ minWatchPercent: 50.5 }, "minWatchPercent"],
      [{ minWatchPercent: "90" }, "minWatchPercent"],
      [{ minSeatSeconds: -1 }, "minSeatSeconds: Minimum seat time cannot be negative"],
      // Credit is set with the course's credit types, not here.
      [{ creditHours: 1 }, "creditHours"],
      [{ minWatchPercent: 80, misspelt: true }, ""],
    ];
    for (const [payload, message] of cases) {
      const response = await patch(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refusalText(response)).toContain(message);
    }
    expect(await stored()).toEqual(before);
  });

  it("is for administrators only, and answers 404 for an unknown course", async () => {
    const { patch, stored } = await setup();
    const before = await stored();
    const learner = await signInAs(ctx, await quickLearner(ctx));
    expect((await patch({ completionPolicy: "verified" }, learner)).statusCode).toBe(403);
    expect((await patch({ completionPolicy: "verified" }, "")).statusCode).toBe(401);
    expect(await stored()).toEqual(before);
    const unknown = await patch({ minWatchPercent: 50 }, undefined, "no-such-course");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: "Course not found", code: "courses.not_found" });
  });

  it("accepts the completion settings in the create call too, and keeps the spec's create body working", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const verified = await postCourse(ctx, cookie, { completionPolicy: "verified" });
    expect(verified.statusCode, verified.body).toBe(201);
    expect(verified.json()).toMatchObject({ completionPolicy: "verified", creditTypes: [] });
    const bad = await postCourse(ctx, cookie, { minWatchPercent: 0 });
    expect(bad.statusCode).toBe(400);
  });
});
