import type {
  Course,
  CourseCreditBody,
  CoursePublishCheck,
  CourseSettingsBody,
  CreateCourseBody,
  CreditType,
  Role,
  UpdateCourseBody,
} from "../../../contract";
import { courseSchema, PUBLISH_CONFIRMATIONS } from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database, Executor } from "../../db/client";
import { createReadCache } from "../../db/read-cache";
import type { Events, Publish } from "../../lib/events";
import type { Actor, AuditEventInput, AuditService, ObjectsService } from "../../platform";
import { fieldChanges } from "../../platform";
import type { PackagesService } from "../packages/packages.service";
import { createCourseContent } from "./course-content";
import { courseEditEvents, courseEvent } from "./course-events";
import { createModuleEdits } from "./course-modules";
import {
  courseNotFound,
  creditTypeNotFound,
  notPublished,
  publishBlocked,
  publishNeedsConfirmation,
  publishNeedsCreditLengthReason,
  publishNeedsModules,
  thumbnailNotUploaded,
} from "./courses.errors";
import { toCourse } from "./courses.mapper";
import { createCoursesRepository } from "./courses.repository";
import type { CourseRow, ModuleRow } from "./courses.table";
import type { CreditCatalogueService } from "./credit-catalogue.service";
import { creditTypesOfCourse, creditTypesOfCourses } from "./credit-offers.read-model";
import { coursePublishChecks } from "./publish-review";

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

export interface Viewer {
  id: string;
  role: Role;
}

/**
 * Which courses a learner is enrolled in: asked of the learning context, which keeps the
 * enrollments, by whoever shows a learner the catalogue.
 */
export interface LearnerEnrollments {
  isEnrolled(userId: string, courseId: string): Promise<boolean>;
  enrolledCourseIds(userId: string): Promise<string[]>;
}

export interface CoursesServiceDeps {
  db: Database;
  objects: ObjectsService;
  /**
   * Publishes course.rules-changed in the transaction of every edit that changes what
   * completes the course: its modules, their completion rule, its credit, publishing.
   */
  events: Pick<Events, "transaction" | "publishIn">;
  /** Keeps the catalogue cache exact across instances; without it nothing is cached. */
  changes?: ChangeFeed;
  /** Every change is an audit event, written in the change's own transaction. */
  audit: Pick<AuditService, "append">;
  /** Keeps the credit types the courses offer, from the organisation's catalogue. */
  creditCatalogue: Pick<CreditCatalogueService, "saveOffer">;
  /** The packages feature: the SCORM and cmi5 packages that package modules play. */
  packages: Pick<PackagesService, "intake" | "summaries" | "release">;
}

/** A course as read on the hot paths: its row, its ordered modules, and its JSON answer. */
export interface CatalogueEntry {
  row: CourseRow;
  modules: ModuleRow[];
  course: Course;
  /** `course` as the response schema serializes it, made once per cache fill. */
  json: string;
}

/**
 * Every learner request reads a course (its page, its modules for progress, its
 * policy for completion) and courses change rarely, so the catalogue is cached in memory and
 * dropped entry by entry when a course or its modules change (db/change-feed.ts).
 */
const CATALOGUE_MAX = 20_000;
const CATALOGUE_TTL_MS = 10 * 60_000;

/** Modules by course id, each list in the order given (modulesOf reads them in order). */
function groupByCourse(moduleRows: ModuleRow[]): Map<string, ModuleRow[]> {
  const byCourse = new Map<string, ModuleRow[]>();
  for (const m of moduleRows) {
    const list = byCourse.get(m.courseId);
    if (list) list.push(m);
    else byCourse.set(m.courseId, [m]);
  }
  return byCourse;
}

/** Credit types by course id, each list in order, without the course id. */
function groupTypesByCourse(rows: (CreditType & { courseId: string })[]) {
  const byCourse = new Map<string, CreditType[]>();
  for (const { courseId, ...type } of rows) {
    const list = byCourse.get(courseId);
    if (list) list.push(type);
    else byCourse.set(courseId, [type]);
  }
  return byCourse;
}

/** Courses and their ordered modules (SPEC sections 2 to 5). Changes are administrators' only. */
export function createCoursesService(deps: CoursesServiceDeps) {
  const { db, objects, events, packages } = deps;
  const repo = createCoursesRepository(db);
  const content = createCourseContent({ repo, objects, packages });
  const { packagesOf, releaseObjects, releasePackages } = content;
  const catalogue = deps.changes
    ? createReadCache<CatalogueEntry>({
        feed: deps.changes,
        tables: ["courses"],
        tagsOf: (entry) => [`courses:${entry.row.id}`],
        max: CATALOGUE_MAX,
        ttlMs: CATALOGUE_TTL_MS,
      })
    : undefined;

  async function loadEntries(ids: string[]): Promise<Map<string, CatalogueEntry>> {
    const [rows, moduleRows, typeRows] = await Promise.all([
      repo.findByIds(ids),
      repo.modulesOf(ids),
      creditTypesOfCourses(db, ids),
    ]);
    const byCourse = groupByCourse(moduleRows);
    const typesByCourse = groupTypesByCourse(typeRows);
    const summaries = await packagesOf(moduleRows);
    return new Map(
      rows.map((row) => {
        const mods = byCourse.get(row.id) ?? [];
        const course = toCourse(row, mods, typesByCourse.get(row.id), summaries);
        return [
          row.id,
          { row, modules: mods, course, json: JSON.stringify(courseSchema.parse(course)) },
        ];
      }),
    );
  }

  /** Cached entries by id (missing ids are absent); misses are read in two queries. */
  const entries = (ids: string[]) =>
    catalogue ? catalogue.getMany(ids, loadEntries) : loadEntries([...new Set(ids)]);
  const entry = async (id: string) => (await entries([id])).get(id);
  /** After this process changed a course or its modules (committed): drop it here at once. */
  const changed = (id: string) => deps.changes?.announce("courses", id);

  async function withModules(rows: CourseRow[]): Promise<Course[]> {
    const ids = rows.map((r) => r.id);
    const [moduleRows, typeRows] = await Promise.all([
      repo.modulesOf(ids),
      creditTypesOfCourses(db, ids),
    ]);
    const byCourse = groupByCourse(moduleRows);
    const typesByCourse = groupTypesByCourse(typeRows);
    const summaries = await packagesOf(moduleRows);
    return rows.map((row) =>
      toCourse(row, byCourse.get(row.id) ?? [], typesByCourse.get(row.id), summaries),
    );
  }

  /** The course's own publish checks, then those of the features that add theirs. */
  async function reviewOf(tx: Executor, row: CourseRow): Promise<CoursePublishCheck[]> {
    const [moduleRows, types] = await Promise.all([
      createCoursesRepository(tx).modulesOf([row.id]),
      creditTypesOfCourse(tx, row.id),
    ]);
    const checks = coursePublishChecks(
      toCourse(row, moduleRows, types, await packagesOf(moduleRows, tx)),
    );
    await events.publishIn(tx, "course.publish-review", {
      courseId: row.id,
      creditTypes: types,
      checks,
    });
    return checks;
  }

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
    /**
     * Administrators see every course. A learner's catalogue is the published courses they
     * are enrolled in: the same courses `get` lets them open, newest first like the admin's.
     */
    async list(viewer: Viewer, enrolled: LearnerEnrollments): Promise<Course[]> {
      if (viewer.role === "admin") return this.listAll();
      const found = await entries(await enrolled.enrolledCourseIds(viewer.id));
      return [...found.values()]
        .filter((e) => e.row.isPublished)
        .sort(
          (a, b) =>
            b.row.createdAt.getTime() - a.row.createdAt.getTime() ||
            (b.row.id < a.row.id ? -1 : b.row.id > a.row.id ? 1 : 0),
        )
        .map((e) => e.course);
    },

    /** Every course, newest first: what administrators see and name courses from. */
    listAll: async (): Promise<Course[]> => withModules(await repo.list()),

    /** A learner may read a course only when it is published and they are enrolled. */
    async get(id: string, viewer: Viewer, enrolled: LearnerEnrollments): Promise<CatalogueEntry> {
      const found = await entry(id);
      if (!found) throw courseNotFound();
      if (viewer.role !== "admin") {
        if (!found.row.isPublished || !(await enrolled.isEnrolled(viewer.id, id))) {
          throw courseNotFound();
        }
      }
      return found;
    },

    /** The course's module ids in order (for progress and unlocking). */
    async moduleIds(courseId: string): Promise<string[]> {
      return (await entry(courseId))?.modules.map((m) => m.id) ?? [];
    },

    findRow: async (id: string) => (await entry(id))?.row,

    /** The package a module of the course plays; undefined for a video or an unknown module. */
    async modulePackageId(courseId: string, moduleId: string): Promise<string | undefined> {
      const module = (await entry(courseId))?.modules.find((m) => m.id === moduleId);
      return module?.packageId ?? undefined;
    },

    /**
     * A published course's thumbnail, ready to serve to anyone (its credentials show it);
     * undefined for a draft or a course without one.
     */
    async publishedImage(courseId: string) {
      const course = (await entry(courseId))?.row;
      if (!course?.isPublished || !course.thumbnail) return undefined;
      return objects.findReady(course.thumbnail, "thumbnail");
    },

    /** Courses by id, with their modules, for embedding in other features' responses. */
    async findMany(ids: string[]): Promise<Map<string, Course>> {
      const found = await entries(ids);
      return new Map([...found].map(([id, e]) => [id, e.course]));
    },

    /**
     * A course with its modules read from the database, past the catalogue: for what must be
     * no older than a version read just before it (a course's rules of completion).
     */
    findFresh: async (id: string): Promise<Course | undefined> =>
      (await loadEntries([id])).get(id)?.course,

    /** The same as catalogue entries, with each course's JSON made once. */
    findEntries: entries,

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
          const blocked = (await reviewOf(tx, course)).find((c) => c.severity === "block");
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
        const checks = await reviewOf(tx, current);
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
      const row = await repo.findById(id);
      if (!row) throw courseNotFound();
      return reviewOf(db, row);
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
