import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  LEARNER_IMPORT_MAX_BATCH,
  LEARNER_IMPORT_MAX_COURSES,
  type LearnerImportResult,
} from "../../../contract";
import { enrollments } from "../../learning/enrollments/enrollments.table";
import { users } from "../../people/auth/auth.table";
import {
  buildPublishedCourse,
  call,
  quickAdmin,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

/**
 * A batch inside the import's limits (500 rows a call, 50 courses a row) may hold more
 * enrollments than one statement's 65,535 parameters carry: 450 rows of 50 courses are
 * 22,500 enrollments. Run on the PostgreSQL server only (CI's second pass): PGlite speaks the
 * same protocol and its limit, and the test's 22,500 enrollments take a while to write.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "learners import: a batch inside the limits",
  () => {
    const ctx = useTestApp();
    const videoPath = useSharedVideo(ctx);

    it("registers 450 learners each enrolled in 50 courses", async () => {
      const cookie = await signInAs(ctx, await quickAdmin(ctx));
      const video = await videoPath(cookie);
      const courseIds: string[] = [];
      for (let n = 0; n < LEARNER_IMPORT_MAX_COURSES; n++) {
        courseIds.push(
          (await buildPublishedCourse(ctx, cookie, { video, title: `Course ${n}` })).id,
        );
      }
      const rows = Array.from({ length: 450 }, (_, i) => ({
        line: i + 2,
        name: `Learner ${i}`,
        email: `learner${i}@example.com`,
        courseIds,
      }));
      expect(rows.length).toBeLessThanOrEqual(LEARNER_IMPORT_MAX_BATCH);

      const response = await call(ctx, "POST", "/api/users/learners/import", {
        cookie,
        payload: { rows },
      });
      expect(response.statusCode, response.body).toBe(200);
      const result = response.json() as LearnerImportResult;
      expect(result.registered).toBe(450);
      expect(result.enrolled).toBe(450 * LEARNER_IMPORT_MAX_COURSES);
      const [learners] = await ctx.database.db
        .select({ n: count() })
        .from(users)
        .where(eq(users.role, "learner"));
      expect(learners!.n).toBe(450);
      const [enrolled] = await ctx.database.db.select({ n: count() }).from(enrollments);
      expect(enrolled!.n).toBe(450 * LEARNER_IMPORT_MAX_COURSES);
    }, 300_000);
  },
);
