import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Course } from "../../../contract";
import { createCourse, postCourse } from "../../testing/courses";
import { call, quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { courses } from "./courses.table";

const DEFAULTS = {
  completionPolicy: "manual",
  minWatchPercent: 90,
  minSeatSeconds: null,
  creditHours: null,
  creditType: null,
  accreditingBody: null,
  providerNumber: null,
};

describe("course completion and credit settings", () => {
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
      creditHours: 1.5,
      creditType: " CME ",
      accreditingBody: "State Board",
      providerNumber: "P-42",
    });
    expect(first.statusCode, first.body).toBe(200);
    const expected = {
      completionPolicy: "verified",
      minWatchPercent: 75,
      minSeatSeconds: 120,
      creditHours: 1.5,
      creditType: "CME",
      accreditingBody: "State Board",
      providerNumber: "P-42",
    };
    expect(first.json()).toMatchObject(expected);
    const second = await patch({ minWatchPercent: 100, creditType: "" });
    expect(second.json()).toMatchObject({ ...expected, minWatchPercent: 100, creditType: null });
    const back = await patch({
      completionPolicy: "manual",
      minSeatSeconds: null,
      creditHours: null,
    });
    expect(back.json()).toMatchObject({
      completionPolicy: "manual",
      minSeatSeconds: null,
      creditHours: null,
    });
    const list = await call(ctx, "GET", "/api/courses", { cookie });
    expect((list.json() as Course[]).find((c) => c.id === course.id)).toMatchObject({
      minWatchPercent: 100,
      accreditingBody: "State Board",
    });
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
      [{ creditHours: 0 }, "creditHours: Credit hours must be greater than 0"],
      [{ creditHours: 1000.5 }, "creditHours"],
      [{ creditHours: 1.234 }, "creditHours: Credit hours can have at most 2 decimals"],
      [{ creditType: "x".repeat(101) }, "creditType: Credit type must be at most 100 characters"],
      [{ accreditingBody: "x".repeat(201) }, "accreditingBody"],
      [{ providerNumber: "x".repeat(101) }, "providerNumber"],
      [{ minWatchPercent: 80, misspelt: true }, ""],
    ];
    for (const [payload, message] of cases) {
      const response = await patch(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(message);
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

  it("accepts the settings in the create call too, and keeps the spec's create body working", async () => {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const withCredit = await postCourse(ctx, cookie, {
      creditHours: 2,
      completionPolicy: "verified",
    });
    expect(withCredit.statusCode, withCredit.body).toBe(201);
    expect(withCredit.json()).toMatchObject({ creditHours: 2, completionPolicy: "verified" });
    const bad = await postCourse(ctx, cookie, { minWatchPercent: 0 });
    expect(bad.statusCode).toBe(400);
  });
});
