import { randomInt } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { beforeEach } from "vitest";
import type { Category, Course, EnrollmentWithRelations } from "../../contract";
import { enrollments, moduleCompletions } from "../learning/enrollments/enrollments.table";
import { type ObjectRow, objects } from "../platform/objects/objects.table";
import { addModule, createCourse, publish, validModule } from "./courses";
import { buildUser, DEFAULT_PASSWORD } from "./factories";
import { testPasswords } from "./passwords";
import { cookieFrom, type TestContext } from "./test-app";
import { uploadObject } from "./uploads";

let passwordHash: Promise<string> | undefined;

/**
 * buildUser with DEFAULT_PASSWORD hashed once per file instead of once per user: scrypt is
 * deliberately slow, and these tests create many users. `password: null` means none.
 */
export async function quickUser(
  ctx: TestContext,
  overrides: Parameters<typeof buildUser>[1] = {},
): ReturnType<typeof buildUser> {
  if (overrides.password === null) return buildUser(ctx, overrides);
  passwordHash ??= testPasswords.hash(DEFAULT_PASSWORD);
  const user = await buildUser(ctx, {
    ...overrides,
    password: null,
    passwordSetup: true,
    passwordHash: await passwordHash,
  });
  return { ...user, passwordSetup: true, password: DEFAULT_PASSWORD };
}

export const quickLearner = (ctx: TestContext, overrides: Parameters<typeof buildUser>[1] = {}) =>
  quickUser(ctx, { role: "learner", ...overrides });

export const quickAdmin = (ctx: TestContext, overrides: Parameters<typeof buildUser>[1] = {}) =>
  quickUser(ctx, {
    role: "admin",
    name: "Test Admin",
    email: `admin-${Math.random().toString(16).slice(2, 10)}@example.com`,
    ...overrides,
  });

let moduleNumber = 0;
/** A fresh client-style module number: ids stay unique however many modules a file adds. */
export const nextModuleNumber = () => ++moduleNumber;

/**
 * One real video per test file. The first test that asks uploads it through the API; the
 * database is emptied before every test, so its `objects` row is put back each time (the
 * bytes stay in the store), which keeps module creation honest and the tests fast.
 */
export function useSharedVideo(ctx: TestContext) {
  let row: ObjectRow | undefined;
  beforeEach(async () => {
    // Registered after useTestApp's reset, so it runs after the tables were emptied.
    if (row) await ctx.database.db.insert(objects).values({ ...row, ownerId: null });
  });
  return async function videoPath(adminCookie: string): Promise<string> {
    if (!row) {
      const path = await uploadObject(ctx, adminCookie, { kind: "video" });
      const id = path.split("/").pop()!;
      [row] = await ctx.database.db.select().from(objects).where(eq(objects.id, id));
    }
    return `/objects/uploads/${row!.id}`;
  };
}

export interface CourseOptions {
  /** An uploaded video's object path, used by every module. */
  video: string;
  modules?: number;
  category?: Category;
  title?: string;
  /** Leave the course a draft. */
  draft?: boolean;
}

/** Creates a course with N modules through the API and publishes it (unless `draft`). */
export async function buildPublishedCourse(
  ctx: TestContext,
  adminCookie: string,
  options: CourseOptions,
): Promise<Course> {
  const course = await createCourse(ctx, adminCookie, {
    ...(options.title ? { title: options.title } : {}),
    ...(options.category ? { category: options.category } : {}),
  });
  const modules = [];
  for (let i = 0; i < (options.modules ?? 1); i++) {
    modules.push(
      await addModule(ctx, adminCookie, course.id, validModule(options.video, nextModuleNumber())),
    );
  }
  if (options.draft) return { ...course, modules };
  return publish(ctx, adminCookie, course.id);
}

/**
 * Signs in through the real login route from an address of its own: the login route is
 * rate limited per address, and a test file signs in more often than a person would.
 */
export async function signInAs(ctx: TestContext, user: { email: string; password: string | null }) {
  const response = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email: user.email, password: user.password },
    remoteAddress: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
  });
  if (response.statusCode !== 200) {
    throw new Error(`signIn failed: ${response.statusCode} ${response.body}`);
  }
  return cookieFrom(response);
}

/** A request with an optional session cookie and JSON body; the raw response. */
export function call(
  ctx: TestContext,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  options: { cookie?: string; payload?: unknown } = {},
) {
  return ctx.app.inject({
    method,
    url,
    headers: options.cookie ? { cookie: options.cookie } : {},
    ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
  });
}

/** POST /api/enrollments as the Add Learner dialog sends it (SPEC section 7). */
export function postEnrollment(
  ctx: TestContext,
  cookie: string | undefined,
  body: { userId: string; courseId: string },
) {
  return call(ctx, "POST", "/api/enrollments", {
    cookie,
    payload: { ...body, progress: 0, completedModules: [], isCompleted: false },
  });
}

/** Enrolls through the API; must succeed. */
export async function enrollViaApi(
  ctx: TestContext,
  adminCookie: string,
  userId: string,
  courseId: string,
): Promise<EnrollmentWithRelations> {
  const response = await postEnrollment(ctx, adminCookie, { userId, courseId });
  if (response.statusCode !== 201) throw new Error(`enroll: ${response.body}`);
  return response.json() as EnrollmentWithRelations;
}

/** POST /api/progress/update as the course player sends it; the raw response. */
export function postProgress(
  ctx: TestContext,
  cookie: string | undefined,
  body: { userId: string; courseId: string; moduleId: string; progress?: number },
) {
  return call(ctx, "POST", "/api/progress/update", {
    cookie,
    payload: { progress: 0, ...body },
  });
}

/** Completes modules in order through the API; each must succeed. Returns the last answer. */
export async function completeViaApi(
  ctx: TestContext,
  learnerCookie: string,
  userId: string,
  course: Course,
  count: number,
): Promise<EnrollmentWithRelations | undefined> {
  let last: EnrollmentWithRelations | undefined;
  for (const module of course.modules.slice(0, count)) {
    const response = await postProgress(ctx, learnerCookie, {
      userId,
      courseId: course.id,
      moduleId: module.id,
    });
    if (response.statusCode !== 200) throw new Error(`progress: ${response.body}`);
    last = response.json() as EnrollmentWithRelations;
  }
  return last;
}

/** Enrollment and completion rows as stored: prove what a request did or did not change. */
export async function progressRows(ctx: TestContext) {
  const { db } = ctx.database;
  return {
    enrollments: await db.select().from(enrollments).orderBy(asc(enrollments.id)),
    completions: await db
      .select()
      .from(moduleCompletions)
      .orderBy(asc(moduleCompletions.enrollmentId), asc(moduleCompletions.moduleId)),
  };
}
