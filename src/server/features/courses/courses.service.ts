import type {
  Course,
  CourseSettingsBody,
  CreateCourseBody,
  ModuleBody,
  Role,
  UpdateCourseBody,
} from "../../../contract";
import { courseSchema } from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database } from "../../db/client";
import { createReadCache } from "../../db/read-cache";
import type { ObjectsService } from "../objects/objects.service";
import {
  courseNotFound,
  moduleIdTaken,
  moduleNotFound,
  notPublished,
  orderNotModules,
  publishedNeedsModules,
  publishNeedsModules,
  thumbnailNotUploaded,
  videoNotUploaded,
} from "./courses.errors";
import { toCourse, toModule } from "./courses.mapper";
import { createCoursesRepository } from "./courses.repository";
import type { CourseRow, ModuleRow } from "./courses.table";

export interface Viewer {
  id: string;
  role: Role;
}

export interface CoursesServiceDeps {
  db: Database;
  objects: ObjectsService;
  /** Whether a learner is enrolled in a course (answered by the enrollments feature). */
  isEnrolled(userId: string, courseId: string): Promise<boolean>;
  /** The ids of the courses a learner is enrolled in (answered by the enrollments feature). */
  enrolledCourseIds(userId: string): Promise<string[]>;
  /** Called after modules are added, removed or reordered, so learners' progress follows. */
  onModulesChanged(courseId: string): Promise<void>;
  /** Other features' refusals of publishing (an exam that cannot draw its questions). */
  publishChecks?: ((courseId: string) => Promise<void>)[];
  /** Keeps the catalogue cache exact across instances; without it nothing is cached. */
  changes?: ChangeFeed;
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

/** Courses and their ordered modules (SPEC sections 2 to 5). Changes are administrators' only. */
export function createCoursesService(deps: CoursesServiceDeps) {
  const { db, objects } = deps;
  const repo = createCoursesRepository(db);
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
    const [rows, moduleRows] = await Promise.all([repo.findByIds(ids), repo.modulesOf(ids)]);
    const byCourse = groupByCourse(moduleRows);
    return new Map(
      rows.map((row) => {
        const mods = byCourse.get(row.id) ?? [];
        const course = toCourse(row, mods);
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
    const byCourse = groupByCourse(await repo.modulesOf(rows.map((r) => r.id)));
    return rows.map((row) => toCourse(row, byCourse.get(row.id) ?? []));
  }

  /** Deletes objects no course or module uses any more (after the change committed). */
  async function releaseObjects(paths: (string | null)[]) {
    const unused: string[] = [];
    for (const path of new Set(paths)) {
      if (path && !(await repo.isObjectInUse(path))) unused.push(path);
    }
    await objects.deleteByPaths(unused);
  }

  async function assertVideo(path: string) {
    if (!(await objects.findReady(path, "video"))) throw videoNotUploaded();
  }

  return {
    /**
     * Administrators see every course. A learner's catalogue is the published courses they
     * are enrolled in: the same courses `get` lets them open, newest first like the admin's.
     */
    async list(viewer: Viewer): Promise<Course[]> {
      if (viewer.role === "admin") return withModules(await repo.list());
      const found = await entries(await deps.enrolledCourseIds(viewer.id));
      return [...found.values()]
        .filter((e) => e.row.isPublished)
        .sort(
          (a, b) =>
            b.row.createdAt.getTime() - a.row.createdAt.getTime() ||
            (b.row.id < a.row.id ? -1 : b.row.id > a.row.id ? 1 : 0),
        )
        .map((e) => e.course);
    },

    /** A learner may read a course only when it is published and they are enrolled. */
    async get(id: string, viewer: Viewer): Promise<CatalogueEntry> {
      const found = await entry(id);
      if (!found) throw courseNotFound();
      if (viewer.role !== "admin") {
        if (!found.row.isPublished || !(await deps.isEnrolled(viewer.id, id))) {
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

    /** Courses by id, with their modules, for embedding in other features' responses. */
    async findMany(ids: string[]): Promise<Map<string, Course>> {
      const found = await entries(ids);
      return new Map([...found].map(([id, e]) => [id, e.course]));
    },

    /** The same as catalogue entries, with each course's JSON made once. */
    findEntries: entries,

    async create(body: CreateCourseBody, adminId: string): Promise<Course> {
      const thumbnail = body.thumbnail || null;
      if (thumbnail && !(await objects.findReady(thumbnail, "thumbnail"))) {
        throw thumbnailNotUploaded();
      }
      const row = await repo.insert({
        title: body.title,
        description: body.description,
        category: body.category,
        duration: body.duration,
        thumbnail,
        createdBy: adminId,
        ...settingsValues(body),
      });
      return toCourse(row, []);
    },

    /**
     * Edits the course's details with the rules of creation. An absent thumbnail keeps the
     * current one; a replaced or removed one is deleted once no course or module uses it.
     * The row is locked so two edits cannot both release a thumbnail the other still needs.
     */
    async update(id: string, body: UpdateCourseBody): Promise<Course> {
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
      const { before, row } = await db.transaction(async (tx) => {
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
        return { before: current, row: updated! };
      });
      changed(id);
      if (before.thumbnail !== row.thumbnail) await releaseObjects([before.thumbnail]);
      const [course] = await withModules([row]);
      return course!;
    },

    /** Changes only the completion and credit settings the body names. */
    async updateSettings(id: string, body: CourseSettingsBody): Promise<Course> {
      const values = settingsValues(body);
      const row = Object.keys(values).length
        ? await repo.update(id, values)
        : await repo.findById(id);
      if (!row) throw courseNotFound();
      changed(id);
      const [course] = await withModules([row]);
      return course!;
    },

    /** Deletes the course with its modules and enrollments (one statement, cascading), then its files. */
    async remove(id: string): Promise<void> {
      const moduleRows = await repo.modulesOf([id]);
      const row = await repo.delete(id);
      if (!row) throw courseNotFound();
      changed(id);
      await releaseObjects([row.thumbnail, ...moduleRows.map((m) => m.videoUrl)]);
    },

    async publish(id: string): Promise<Course> {
      for (const check of deps.publishChecks ?? []) await check(id);
      const row = await repo.publish(id);
      if (row) changed(id);
      else {
        if (!(await repo.findById(id))) throw courseNotFound();
        throw publishNeedsModules();
      }
      const [course] = await withModules([row]);
      return course!;
    },

    /**
     * Takes a published course back to draft. Enrollments, progress and certificates stay;
     * learners cannot open the course until it is published again.
     */
    async unpublish(id: string): Promise<Course> {
      const row = await repo.unpublish(id);
      if (!row) {
        if (!(await repo.findById(id))) throw courseNotFound();
        throw notPublished();
      }
      changed(id);
      const [course] = await withModules([row]);
      return course!;
    },

    /**
     * Puts the modules in the given order, which must name every module of the course once.
     * Completions are per module, so learners keep them; which module is open next follows
     * the new order (SPEC section 4, module access).
     */
    async reorderModules(courseId: string, moduleIds: string[]): Promise<Course> {
      const row = await db.transaction(async (tx) => {
        const txRepo = createCoursesRepository(tx);
        const course = await txRepo.lockById(courseId);
        if (!course) throw courseNotFound();
        const current = (await txRepo.modulesOf([courseId])).map((m) => m.id);
        const problem = orderProblem(current, moduleIds);
        if (problem) throw orderNotModules(problem);
        await txRepo.setModuleOrder(courseId, moduleIds);
        return course;
      });
      changed(courseId);
      await deps.onModulesChanged(courseId);
      const [course] = await withModules([row]);
      return course!;
    },

    /** Appends a module at the end of the course. */
    async addModule(courseId: string, body: ModuleBody) {
      await assertVideo(body.videoUrl);
      const row = await db.transaction(async (tx) => {
        const txRepo = createCoursesRepository(tx);
        if (!(await txRepo.lockById(courseId))) throw courseNotFound();
        const inserted = await txRepo.insertModule({
          courseId,
          id: body.id,
          position: await txRepo.nextPosition(courseId),
          title: body.title,
          description: body.description || null,
          duration: body.duration,
          videoUrl: body.videoUrl,
        });
        if (!inserted) throw moduleIdTaken();
        return inserted;
      });
      changed(courseId);
      await deps.onModulesChanged(courseId);
      return toModule(row);
    },

    async updateModule(courseId: string, moduleId: string, body: ModuleBody) {
      const before = (await repo.modulesOf([courseId])).find((m) => m.id === moduleId);
      if (!before) {
        if (!(await repo.findById(courseId))) throw courseNotFound();
        throw moduleNotFound();
      }
      if (body.videoUrl !== before.videoUrl) await assertVideo(body.videoUrl);
      const row = await repo.updateModule(courseId, moduleId, {
        title: body.title,
        description: body.description || null,
        duration: body.duration,
        videoUrl: body.videoUrl,
      });
      if (!row) throw moduleNotFound();
      changed(courseId);
      if (before.videoUrl !== row.videoUrl) await releaseObjects([before.videoUrl]);
      return toModule(row);
    },

    async removeModule(courseId: string, moduleId: string): Promise<void> {
      const removed = await db.transaction(async (tx) => {
        const txRepo = createCoursesRepository(tx);
        const course = await txRepo.lockById(courseId);
        if (!course) throw courseNotFound();
        const row = await txRepo.deleteModule(courseId, moduleId);
        if (!row) throw moduleNotFound();
        if (course.isPublished && (await txRepo.countModules(courseId)) === 0) {
          throw publishedNeedsModules();
        }
        return row;
      });
      changed(courseId);
      await deps.onModulesChanged(courseId);
      await releaseObjects([removed.videoUrl]);
    },

    coursesWithThumbnail: (path: string) => repo.coursesWithThumbnail(path),
    modulesWithVideo: (path: string) => repo.modulesWithVideo(path),
  };
}

/** Why a proposed order is not exactly the course's modules, or null when it is. */
function orderProblem(current: string[], proposed: string[]): string | null {
  const known = new Set(current);
  const seen = new Set<string>();
  for (const id of proposed) {
    if (!known.has(id)) return `${id} is not a module of this course.`;
    if (seen.has(id)) return `${id} is listed more than once.`;
    seen.add(id);
  }
  const missing = current.find((id) => !seen.has(id));
  return missing ? `${missing} is missing.` : null;
}

/** The settings a body names, as column values (absent keys stay untouched). */
function settingsValues(body: CourseSettingsBody): Partial<CourseRow> {
  const values: Partial<CourseRow> = {};
  if (body.completionPolicy !== undefined) values.completionPolicy = body.completionPolicy;
  if (body.minWatchPercent !== undefined) values.minWatchPercent = body.minWatchPercent;
  if (body.minSeatSeconds !== undefined) values.minSeatSeconds = body.minSeatSeconds;
  if (body.creditHours !== undefined) values.creditHours = body.creditHours;
  if (body.creditType !== undefined) values.creditType = body.creditType;
  if (body.accreditingBody !== undefined) values.accreditingBody = body.accreditingBody;
  if (body.providerNumber !== undefined) values.providerNumber = body.providerNumber;
  return values;
}

export type CoursesService = ReturnType<typeof createCoursesService>;
