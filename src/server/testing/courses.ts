import { asc } from "drizzle-orm";
import type { Course, Module } from "../../contract";
import { courses, modules } from "../catalogue/courses/courses.table";
import { enrollments, moduleCompletions } from "../learning/enrollments/enrollments.table";
import { objects } from "../platform/objects/objects.table";
import type { TestContext } from "./test-app";

/** A module id as the client makes it: 'module_' + a timestamp (SPEC section 3). */
export const moduleId = (n: number) => `module_${1_700_000_000_000 + n}`;

const validCourse = {
  title: "Intro to SQL",
  description: "Tables, joins and indexes.",
  category: "Database",
  duration: 3,
  thumbnail: "",
  createdBy: "ignored",
  modules: [],
};

/** POST /api/courses with a valid body, overridden field by field (undefined drops one). */
export function postCourse(
  ctx: TestContext,
  cookie: string,
  overrides: Record<string, unknown> = {},
) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/courses",
    headers: { cookie },
    payload: { ...validCourse, ...overrides },
  });
}

/** Creates a course that must succeed. */
export async function createCourse(
  ctx: TestContext,
  cookie: string,
  overrides: Record<string, unknown> = {},
): Promise<Course> {
  const response = await postCourse(ctx, cookie, overrides);
  if (response.statusCode !== 201) throw new Error(`create course: ${response.body}`);
  return response.json() as Course;
}

export const validModule = (videoUrl: string, n = 1) => ({
  id: moduleId(n),
  title: `Module ${n}`,
  description: "",
  duration: 5,
  videoUrl,
});

/** POST /api/courses/:id/modules; the raw response. */
export function postModule(
  ctx: TestContext,
  cookie: string,
  courseId: string,
  body: Record<string, unknown>,
) {
  return ctx.app.inject({
    method: "POST",
    url: `/api/courses/${courseId}/modules`,
    headers: { cookie },
    payload: body,
  });
}

/** Adds a module that must succeed. */
export async function addModule(
  ctx: TestContext,
  cookie: string,
  courseId: string,
  body: Record<string, unknown>,
): Promise<Module> {
  const response = await postModule(ctx, cookie, courseId, body);
  if (response.statusCode !== 201) throw new Error(`add module: ${response.body}`);
  return response.json() as Module;
}

export async function publish(ctx: TestContext, cookie: string, courseId: string) {
  const response = await ctx.app.inject({
    method: "PATCH",
    url: `/api/courses/${courseId}/publish`,
    headers: { cookie },
  });
  if (response.statusCode !== 200) throw new Error(`publish: ${response.body}`);
  return response.json() as Course;
}

/** Enrolls a learner straight in the table (the enrollment routes are another feature's). */
export async function enroll(ctx: TestContext, userId: string, courseId: string) {
  const [row] = await ctx.database.db.insert(enrollments).values({ userId, courseId }).returning();
  return row!;
}

/** Records a completed module straight in the table. */
export async function completeModule(ctx: TestContext, enrollmentId: string, moduleId: string) {
  await ctx.database.db.insert(moduleCompletions).values({ enrollmentId, moduleId });
}

/**
 * Every row a course, module or upload request could touch, in a stable order: compare
 * before and after a refused request to prove it changed nothing.
 */
export async function snapshot(ctx: TestContext) {
  const { db } = ctx.database;
  return {
    courses: await db.select().from(courses).orderBy(asc(courses.id)),
    modules: await db.select().from(modules).orderBy(asc(modules.courseId), asc(modules.id)),
    objects: await db.select().from(objects).orderBy(asc(objects.id)),
    enrollments: await db.select().from(enrollments).orderBy(asc(enrollments.id)),
    completions: await db
      .select()
      .from(moduleCompletions)
      .orderBy(asc(moduleCompletions.enrollmentId), asc(moduleCompletions.moduleId)),
  };
}
