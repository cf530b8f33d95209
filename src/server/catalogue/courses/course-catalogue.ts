import { type Course, type CreditType, courseSchema, type Role } from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import type { Database } from "../../db/client";
import { createReadCache } from "../../db/read-cache";
import type { ObjectsService } from "../../platform";
import type { CourseContent } from "./course-content";
import { courseNotFound } from "./courses.errors";
import { toCourse } from "./courses.mapper";
import type { CoursesRepository } from "./courses.repository";
import type { CourseRow, ModuleRow } from "./courses.table";
import { creditTypesOfCourses } from "./credit-offers.read-model";

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

/**
 * The courses as everyone reads them: one course, or a learner's, through the catalogue cache;
 * the administrators' list of every course from the database.
 */
export function createCourseCatalogue(deps: {
  db: Database;
  repo: Pick<CoursesRepository, "findByIds" | "modulesOf" | "list">;
  objects: Pick<ObjectsService, "findReady">;
  packagesOf: CourseContent["packagesOf"];
  /** Keeps the cache exact across instances; without it nothing is cached. */
  changes?: ChangeFeed;
}) {
  const { db, repo, packagesOf } = deps;
  const cache = deps.changes
    ? createReadCache<CatalogueEntry>({
        feed: deps.changes,
        tables: ["courses"],
        tagsOf: (entry) => [`courses:${entry.row.id}`],
        max: CATALOGUE_MAX,
        ttlMs: CATALOGUE_TTL_MS,
      })
    : undefined;

  /** Courses with their ordered modules and credit types, from rows read together. */
  async function assemble(
    rows: CourseRow[],
    moduleRows: ModuleRow[],
    typeRows: (CreditType & { courseId: string })[],
  ) {
    const byCourse = groupByCourse(moduleRows);
    const typesByCourse = groupTypesByCourse(typeRows);
    const summaries = await packagesOf(moduleRows);
    return rows.map((row) => {
      const modules = byCourse.get(row.id) ?? [];
      return { row, modules, course: toCourse(row, modules, typesByCourse.get(row.id), summaries) };
    });
  }

  async function loadEntries(ids: string[]): Promise<Map<string, CatalogueEntry>> {
    const [rows, moduleRows, typeRows] = await Promise.all([
      repo.findByIds(ids),
      repo.modulesOf(ids),
      creditTypesOfCourses(db, ids),
    ]);
    const found = await assemble(rows, moduleRows, typeRows);
    return new Map(
      found.map((e) => [e.row.id, { ...e, json: JSON.stringify(courseSchema.parse(e.course)) }]),
    );
  }

  /** Cached entries by id (missing ids are absent); misses are read together. */
  const entries = (ids: string[]) =>
    cache ? cache.getMany(ids, loadEntries) : loadEntries([...new Set(ids)]);
  const entry = async (id: string) => (await entries([id])).get(id);

  /** Courses as answered, with their modules, read past the cache. */
  async function withModules(rows: CourseRow[]): Promise<Course[]> {
    const ids = rows.map((r) => r.id);
    const [moduleRows, typeRows] = await Promise.all([
      repo.modulesOf(ids),
      creditTypesOfCourses(db, ids),
    ]);
    return (await assemble(rows, moduleRows, typeRows)).map((e) => e.course);
  }

  /** Every course, newest first: what administrators see and name courses from. */
  const listAll = async (): Promise<Course[]> => withModules(await repo.list());

  const reads = {
    /**
     * Administrators see every course. A learner's catalogue is the published courses they
     * are enrolled in: the same courses `get` lets them open, newest first like the admin's.
     */
    async list(viewer: Viewer, enrolled: LearnerEnrollments): Promise<Course[]> {
      if (viewer.role === "admin") return listAll();
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

    listAll,

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
      return deps.objects.findReady(course.thumbnail, "thumbnail");
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
  };

  return { withModules, reads };
}
