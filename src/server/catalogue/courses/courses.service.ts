import type {
  Course,
  CourseCreditBody,
  CoursePublishCheck,
  CourseSettingsBody,
  CreateCourseBody,
  CreditType,
  UpdateCourseBody,
} from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database, Executor } from "../../db/client";
import type { Events, Publish } from "../../lib/events";
import type { Actor, AuditEventInput, AuditService, ObjectsService } from "../../platform";
import { fieldChanges } from "../../platform";
import type { PackagesService } from "../packages/packages.service";
import { createCourseCatalogue } from "./course-catalogue";
import { createCourseContent } from "./course-content";
import { courseEditEvents, courseEvent } from "./course-events";
import { createModuleEdits } from "./course-modules";
import { createCoursePublishing, publishReviewOf } from "./course-publishing";
import {
  courseNotFound,
  creditTypeNotFound,
  publishBlocked,
  thumbnailChanged,
  thumbnailNotUploaded,
} from "./courses.errors";
import { toCourse } from "./courses.mapper";
import { createCoursesRepository } from "./courses.repository";
import type { CourseRow } from "./courses.table";
import { createCreditCatalogueRepository } from "./credit-catalogue.repository";
import type { CreditCatalogueService } from "./credit-catalogue.service";
import { creditTypesOfCourse } from "./credit-offers.read-model";

declare module "../../lib/events" {
  interface EventMap {
    /**
     * Something a course's learners are judged complete by changed: its modules or their
     * order, the completion rule of its modules, a step's settings (the exam, its questions,
     * the activity, the evaluation, the attestation), its credit offer, or whether it is
     * published. Published by whichever feature owns what changed.
     */
    "course.rules-changed": { courseId: string };
    /**
     * A course is about to be published, inside the transaction that publishes it: a feature
     * whose settings would leave the course unusable (an exam that cannot draw its questions)
     * refuses by throwing its error, and nothing is published.
     */
    "course.publishing": { courseId: string };
    /**
     * What publishing a course should make its administrator aware of, asked of the features
     * whose settings decide it (the fields of study a credit type needs): each adds its
     * checks to `checks`. Asked for the review beside 'Publish Course' and again inside the
     * transaction that publishes, which refuses on a "block".
     */
    "course.publish-review": {
      courseId: string;
      creditTypes: CreditType[];
      checks: CoursePublishCheck[];
    };
  }
}

export interface CoursesServiceDeps {
  db: Database;
  objects: ObjectsService;
  /**
   * Publishes course.rules-changed in the transaction of every edit that changes what
   * completes the course: its modules, their completion rule, its credit, publishing.
   */
  events: Pick<Events, "transaction" | "publishIn" | "subscribe">;
  /** Keeps the catalogue cache exact across instances; without it nothing is cached. */
  changes?: ChangeFeed;
  /** Every change is an audit event, written in the change's own transaction. */
  audit: Pick<AuditService, "append">;
  /** Keeps the credit types the courses offer, from the organisation's catalogue. */
  creditCatalogue: Pick<CreditCatalogueService, "saveOffer">;
  /** The packages feature: the SCORM and cmi5 packages that package modules play. */
  packages: Pick<PackagesService, "intake" | "summaries" | "release">;
}

/** Courses and their ordered modules (SPEC sections 2 to 5). Changes are administrators' only. */
export function createCoursesService(deps: CoursesServiceDeps) {
  const { db, objects, events, packages } = deps;
  const repo = createCoursesRepository(db);
  const content = createCourseContent({ repo, objects, packages });
  const { packagesOf, releaseObjects, releasePackages } = content;
  const { withModules, reads } = createCourseCatalogue({
    db,
    repo,
    objects,
    packagesOf,
    changes: deps.changes,
  });
  /**
   * A published course keeps what publishing asked of it when the catalogue changes under
   * it: a merge that brings in a type needing fields of study, or a type that starts needing
   * them, is refused while a published course offering it would fail its review.
   */
  async function assertOfferingPublishable(tx: Executor, typeId: string) {
    const offering = await createCreditCatalogueRepository(tx).coursesOffering(typeId);
    const rows = await createCoursesRepository(tx).findByIds(offering.map((o) => o.courseId));
    for (const course of rows.filter((c) => c.isPublished)) {
      const checks = await publishReviewOf({ events, packagesOf }, tx, course);
      const blocked = checks.find((c) => c.severity === "block");
      if (blocked) throw publishBlocked(`${course.title}: ${blocked.message}`);
    }
  }
  events.subscribe("catalogue.types-merged", {
    inTransaction: (tx, { intoId }) => assertOfferingPublishable(tx, intoId),
  });
  events.subscribe("catalogue.type-tightened", {
    inTransaction: (tx, { typeId }) => assertOfferingPublishable(tx, typeId),
  });

  /** After this process changed a course or its modules (committed): drop it here at once. */
  const changed = (id: string) => deps.changes?.announce("courses", id);

  async function record(tx: Executor, list: AuditEventInput[]) {
    for (const event of list) await deps.audit.append(tx, event);
  }

  /** Records an edit of the course row; a change of its completion settings is published. */
  async function recordEdit(tx: Executor, publish: Publish, list: AuditEventInput[]) {
    await record(tx, list);
    if (list.some((e) => e.type === "course.settings_updated")) {
      await publish("course.rules-changed", { courseId: list[0]!.courseId! });
    }
  }

  const moduleEdits = createModuleEdits({
    db,
    events,
    repo,
    content,
    record,
    changed,
    withModules,
  });

  return {
    ...reads,

    async create(body: CreateCourseBody, actor: NonNullable<Actor>): Promise<Course> {
      const thumbnail = body.thumbnail || null;
      if (thumbnail && !(await objects.findReady(thumbnail, "thumbnail"))) {
        throw thumbnailNotUploaded();
      }
      const row = await db.transaction(async (tx) => {
        const inserted = await createCoursesRepository(tx).insert({
          title: body.title,
          description: body.description,
          category: body.category,
          duration: body.duration,
          thumbnail,
          createdBy: actor.id,
          ...settingsValues(body),
        });
        await record(tx, [
          courseEvent("course.created", actor, inserted, {
            category: inserted.category,
            duration: inserted.duration,
          }),
        ]);
        return inserted;
      });
      return toCourse(row, []);
    },

    /**
     * Edits the course's details with the rules of creation. An absent thumbnail keeps the
     * current one; a replaced or removed one is deleted once no course or module uses it.
     * The row is locked so two edits cannot both release a thumbnail the other still needs.
     */
    async update(id: string, body: UpdateCourseBody, actor: Actor): Promise<Course> {
      const found = await repo.findById(id);
      if (!found) throw courseNotFound();
      // Checked before the transaction: the objects feature reads outside it.
      if (
        body.thumbnail &&
        body.thumbnail !== found.thumbnail &&
        !(await objects.findReady(body.thumbnail, "thumbnail"))
      ) {
        throw thumbnailNotUploaded();
      }
      const { before, row } = await events.transaction(db, async (tx, publish) => {
        const txRepo = createCoursesRepository(tx);
        const current = await txRepo.lockById(id);
        if (!current) throw courseNotFound();
        // A thumbnail sent back as it was read was not checked above. An edit that replaced
        // it since has deleted it: keeping it would show learners a missing image.
        if (
          body.thumbnail &&
          body.thumbnail === found.thumbnail &&
          current.thumbnail !== found.thumbnail
        ) {
          throw thumbnailChanged();
        }
        const thumbnail = body.thumbnail === undefined ? current.thumbnail : body.thumbnail || null;
        const updated = await txRepo.update(id, {
          title: body.title,
          description: body.description,
          category: body.category,
          duration: body.duration,
          thumbnail,
          ...settingsValues(body),
        });
        await recordEdit(tx, publish, courseEditEvents(current, updated!, actor));
        return { before: current, row: updated! };
      });
      changed(id);
      if (before.thumbnail !== row.thumbnail) await releaseObjects([before.thumbnail]);
      const [course] = await withModules([row]);
      return course!;
    },

    /**
     * Replaces the credit types the course offers and their bodies (the body is checked by
     * the contract). A type named by id must be one of the course's; the course is locked so
     * two edits do not interleave.
     */
    async saveCredit(id: string, body: CourseCreditBody, actor: Actor): Promise<Course> {
      const row = await events.transaction(db, async (tx, publish) => {
        const course = await createCoursesRepository(tx).lockById(id);
        if (!course) throw courseNotFound();
        const before = await creditTypesOfCourse(tx, id);
        const known = new Set(before.map((t) => t.id));
        if (body.types.some((t) => t.id && !known.has(t.id))) throw creditTypeNotFound();
        await deps.creditCatalogue.saveOffer(tx, id, body, actor);
        // A published course keeps what publishing asked of it: a type that needs fields of
        // study, say, is offered only once they add up to its amount.
        if (course.isPublished) {
          const checks = await publishReviewOf({ events, packagesOf }, tx, course);
          const blocked = checks.find((c) => c.severity === "block");
          if (blocked) throw publishBlocked(blocked.message);
        }
        const after = await creditTypesOfCourse(tx, id);
        const offer = (types: CreditType[]) =>
          types.map((t) => ({
            name: t.name,
            amount: t.amount,
            accreditingBody: t.accreditingBody,
            providerNumber: t.providerNumber,
            claimStep: t.claimStep,
            licenceRequired: t.licenceRequired,
          }));
        const changes = fieldChanges({ credit: before }, { credit: after }, ["credit"]);
        if (changes.length) {
          await record(tx, [
            courseEvent("credit.settings_updated", actor, course, {
              changes,
              creditBefore: offer(before),
              creditAfter: offer(after),
            }),
          ]);
          await publish("course.rules-changed", { courseId: id });
        }
        return course;
      });
      changed(id);
      const [course] = await withModules([row]);
      return course!;
    },

    /** Changes only the completion settings the body names. */
    async updateSettings(id: string, body: CourseSettingsBody, actor: Actor): Promise<Course> {
      const values = settingsValues(body);
      const row = await events.transaction(db, async (tx, publish) => {
        const txRepo = createCoursesRepository(tx);
        const current = await txRepo.lockById(id);
        if (!current) throw courseNotFound();
        if (!Object.keys(values).length) return current;
        const updated = (await txRepo.update(id, values))!;
        await recordEdit(tx, publish, courseEditEvents(current, updated, actor));
        return updated;
      });
      changed(id);
      const [course] = await withModules([row]);
      return course!;
    },

    /** Deletes the course with its modules and enrollments (one statement, cascading), then its files. */
    async remove(id: string, actor: Actor): Promise<void> {
      const moduleRows = await repo.modulesOf([id]);
      const row = await db.transaction(async (tx) => {
        const deleted = await createCoursesRepository(tx).delete(id);
        if (!deleted) throw courseNotFound();
        await record(tx, [
          courseEvent("course.deleted", actor, deleted, {
            wasPublished: deleted.isPublished,
            modules: moduleRows.length,
          }),
        ]);
        return deleted;
      });
      changed(id);
      await releaseObjects([row.thumbnail, ...moduleRows.map((m) => m.videoUrl)]);
      await releasePackages(moduleRows.map((m) => m.packageId));
    },

    ...createCoursePublishing({ db, events, repo, packagesOf, record, changed, withModules }),
    ...moduleEdits,

    coursesWithThumbnail: (path: string) => repo.coursesWithThumbnail(path),
    modulesWithVideo: (path: string) => repo.modulesWithVideo(path),
  };
}

/** The settings a body names, as column values (absent keys stay untouched). */
function settingsValues(body: CourseSettingsBody): Partial<CourseRow> {
  const values: Partial<CourseRow> = {};
  if (body.completionPolicy !== undefined) values.completionPolicy = body.completionPolicy;
  if (body.minWatchPercent !== undefined) values.minWatchPercent = body.minWatchPercent;
  if (body.minSeatSeconds !== undefined) values.minSeatSeconds = body.minSeatSeconds;
  return values;
}

export type CoursesService = ReturnType<typeof createCoursesService>;
