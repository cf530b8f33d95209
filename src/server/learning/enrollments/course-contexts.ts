import type { Course } from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database } from "../../db/client";
import { createReadCache } from "../../db/read-cache";
import type { AnyCompletionStep, CourseContext, SharedLoad } from "./completion-steps";
import { createEnrollmentsRepository } from "./enrollments.repository";

export interface CourseContextsDeps {
  db: Database;
  courses: { findFresh(id: string): Promise<Course | undefined> };
  steps: readonly AnyCompletionStep[];
  /** Keeps the cache exact across instances; without it every request reads afresh. */
  changes?: ChangeFeed;
}

/**
 * The course's credit context (the course, its module order and every step's settings), read
 * once per request and cached per course: a step, its order check, the settling of
 * completion and the certificate all ask it several times in one request. A change of the
 * course or its modules (the triggers of migration 0010), or of a step's settings (the
 * course.rules-changed its edit publishes, announced at commit by the enrollments service),
 * is announced as a change of the course, which drops the entry in every instance.
 */
export function createCourseContexts(deps: CourseContextsDeps) {
  const cache = deps.changes
    ? createReadCache<CourseContext>({
        feed: deps.changes,
        tables: ["courses"],
        tagsOf: (context) => [`courses:${context.course.id}`],
        max: 20_000,
        ttlMs: 10 * 60_000,
      })
    : undefined;

  async function load(courseId: string): Promise<CourseContext | undefined> {
    // The version first, then everything else from the database: nothing read below is older
    // than the version, and an edit that commits after it leaves this context behind, which
    // the step that uses it finds in its transaction, reading the course again.
    const version =
      (await createEnrollmentsRepository(deps.db).rulesVersions([courseId])).get(courseId) ?? 0;
    const course = await deps.courses.findFresh(courseId);
    if (!course) return undefined;
    // Steps that read the same settings share one loader: each loader runs once, whether a
    // step loads with it or reads another step's settings through it, side by side.
    const loads = new Map<unknown, Promise<unknown>>();
    const shared: SharedLoad = (loader) => {
      if (!loads.has(loader)) loads.set(loader, loader(deps.db, courseId));
      return loads.get(loader) as ReturnType<typeof loader>;
    };
    for (const step of deps.steps) {
      if (!loads.has(step.load)) loads.set(step.load, step.load(deps.db, courseId, shared));
    }
    const settings = new Map<AnyCompletionStep, unknown>();
    for (const step of deps.steps) settings.set(step, await loads.get(step.load));
    return { course, modules: course.modules.map((m) => m.id), settings, version };
  }

  return {
    /** The course's context, or undefined for an unknown course. */
    get: (courseId: string) => (cache ? cache.get(courseId, () => load(courseId)) : load(courseId)),
    /** The course's context read afresh: for a recompute right after the course changed. */
    fresh: load,
  };
}
