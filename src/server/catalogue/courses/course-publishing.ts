import type { Course, CoursePublishCheck } from "../../../contract";
import { PUBLISH_CONFIRMATIONS } from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { Events } from "../../lib/events";
import type { Actor, AuditEventInput } from "../../platform";
import type { CourseContent } from "./course-content";
import { courseEvent } from "./course-events";
import {
  courseNotFound,
  notPublished,
  publishBlocked,
  publishNeedsConfirmation,
  publishNeedsCreditLengthReason,
  publishNeedsModules,
} from "./courses.errors";
import { toCourse } from "./courses.mapper";
import { type CoursesRepository, createCoursesRepository } from "./courses.repository";
import type { CourseRow } from "./courses.table";
import { creditTypesOfCourse } from "./credit-offers.read-model";
import { coursePublishChecks } from "./publish-review";

export interface CoursePublishingDeps {
  db: Database;
  events: Pick<Events, "transaction" | "publishIn">;
  repo: Pick<CoursesRepository, "findById">;
  packagesOf: CourseContent["packagesOf"];
  /** Writes the change's audit events in its transaction. */
  record(tx: Executor, list: AuditEventInput[]): Promise<void>;
  /** After the change committed: drops the course from the catalogue cache. */
  changed(courseId: string): void;
  /** The course as answered, with its modules. */
  withModules(rows: CourseRow[]): Promise<Course[]>;
}

/**
 * The course's own publish checks, then those of the features that add theirs: what
 * publishing asks of a course, whether it is being published or already is.
 */
export async function publishReviewOf(
  deps: Pick<CoursePublishingDeps, "events" | "packagesOf">,
  tx: Executor,
  row: CourseRow,
): Promise<CoursePublishCheck[]> {
  const [moduleRows, types] = await Promise.all([
    createCoursesRepository(tx).modulesOf([row.id]),
    creditTypesOfCourse(tx, row.id),
  ]);
  const checks = coursePublishChecks(
    toCourse(row, moduleRows, types, await deps.packagesOf(moduleRows, tx)),
  );
  await deps.events.publishIn(tx, "course.publish-review", {
    courseId: row.id,
    creditTypes: types,
    checks,
  });
  return checks;
}

/** A course put before learners, or taken back to draft, by an administrator. */
export function createCoursePublishing(deps: CoursePublishingDeps) {
  const { db, events, record, changed, withModules } = deps;
  return {
    /**
     * Publishing a published course again changes nothing and records nothing. A course that
     * offers credit while its modules are completed manually is published only when the
     * administrator confirms it (`confirm: "manual-completion"`): credit would then be earned
     * without any watching.
     */
    async publish(
      id: string,
      actor: Actor,
      options: {
        confirm?: typeof PUBLISH_CONFIRMATIONS.manualCompletion;
        creditLengthReason?: string;
      } = {},
    ): Promise<Course> {
      const row = await events.transaction(db, async (tx, publish) => {
        // Other features' refusals (an exam that cannot draw its questions) come first.
        await publish("course.publishing", { courseId: id });
        const txRepo = createCoursesRepository(tx);
        const current = await txRepo.lockById(id);
        if (!current) throw courseNotFound();
        const published = await txRepo.publish(id);
        if (!published) throw publishNeedsModules();
        if (current.isPublished) return published;
        const checks = await publishReviewOf(deps, tx, current);
        const blocked = checks.find((c) => c.severity === "block");
        if (blocked) throw publishBlocked(blocked.message);
        if (
          options.confirm !== PUBLISH_CONFIRMATIONS.manualCompletion &&
          checks.some((c) => c.key === "manual-completion")
        ) {
          throw publishNeedsConfirmation();
        }
        const creditLength = checks.filter((c) => c.key === "credit-length");
        if (creditLength.length && !options.creditLengthReason) {
          throw publishNeedsCreditLengthReason();
        }
        await record(tx, [
          courseEvent(
            "course.published",
            actor,
            published,
            creditLength.length
              ? {
                  creditLengthReason: options.creditLengthReason!,
                  creditLength: creditLength.map((c) => c.message),
                }
              : {},
          ),
        ]);
        await publish("course.rules-changed", { courseId: id });
        return published;
      });
      changed(id);
      const [course] = await withModules([row]);
      return course!;
    },

    /** What publishing the course should make its administrator aware of (publish-review.ts). */
    async publishReview(id: string): Promise<CoursePublishCheck[]> {
      const row = await deps.repo.findById(id);
      if (!row) throw courseNotFound();
      return publishReviewOf(deps, db, row);
    },

    /**
     * Takes a published course back to draft. Enrollments, progress and certificates stay;
     * learners cannot open the course until it is published again.
     */
    async unpublish(id: string, actor: Actor): Promise<Course> {
      const row = await events.transaction(db, async (tx, publish) => {
        const txRepo = createCoursesRepository(tx);
        const unpublished = await txRepo.unpublish(id);
        if (!unpublished) {
          if (!(await txRepo.lockById(id))) throw courseNotFound();
          throw notPublished();
        }
        await record(tx, [courseEvent("course.unpublished", actor, unpublished)]);
        await publish("course.rules-changed", { courseId: id });
        return unpublished;
      });
      changed(id);
      const [course] = await withModules([row]);
      return course!;
    },
  };
}
