import type {
  Course,
  CourseSettingsBody,
  CreateCourseBody,
  ModuleBody,
  Role,
} from "../../../contract";
import type { Database } from "../../db/client";
import type { ObjectsService } from "../objects/objects.service";
import {
  courseNotFound,
  moduleIdTaken,
  moduleNotFound,
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
  /** Called after a module is added or removed, so learners' progress follows the course. */
  onModulesChanged(courseId: string): Promise<void>;
}

/** Courses and their ordered modules (SPEC sections 2 to 5). Changes are administrators' only. */
export function createCoursesService(deps: CoursesServiceDeps) {
  const { db, objects } = deps;
  const repo = createCoursesRepository(db);

  async function withModules(rows: CourseRow[]): Promise<Course[]> {
    const all = await repo.modulesOf(rows.map((r) => r.id));
    const byCourse = new Map<string, ModuleRow[]>();
    for (const m of all) byCourse.set(m.courseId, [...(byCourse.get(m.courseId) ?? []), m]);
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
    /** Administrators see every course; learners only published ones (never drafts). */
    async list(viewer: Viewer): Promise<Course[]> {
      return withModules(await repo.list({ publishedOnly: viewer.role !== "admin" }));
    },

    /** A learner may read a course only when it is published and they are enrolled. */
    async get(id: string, viewer: Viewer): Promise<Course> {
      const row = await repo.findById(id);
      if (!row) throw courseNotFound();
      if (viewer.role !== "admin") {
        if (!row.isPublished || !(await deps.isEnrolled(viewer.id, id))) throw courseNotFound();
      }
      const [course] = await withModules([row]);
      return course!;
    },

    /** The course's module ids in order (for progress and unlocking). */
    async moduleIds(courseId: string): Promise<string[]> {
      return (await repo.modulesOf([courseId])).map((m) => m.id);
    },

    findRow: (id: string) => repo.findById(id),

    /** Courses by id, with their modules, for embedding in other features' responses. */
    async findMany(ids: string[]): Promise<Map<string, Course>> {
      const rows = await repo.findByIds([...new Set(ids)]);
      return new Map((await withModules(rows)).map((c) => [c.id, c]));
    },

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

    /** Issues 10 and 11: changes only the completion and credit settings the body names. */
    async updateSettings(id: string, body: CourseSettingsBody): Promise<Course> {
      const values = settingsValues(body);
      const row = Object.keys(values).length
        ? await repo.updateSettings(id, values)
        : await repo.findById(id);
      if (!row) throw courseNotFound();
      const [course] = await withModules([row]);
      return course!;
    },

    /** Deletes the course with its modules and enrollments (one statement, cascading), then its files. */
    async remove(id: string): Promise<void> {
      const moduleRows = await repo.modulesOf([id]);
      const row = await repo.delete(id);
      if (!row) throw courseNotFound();
      await releaseObjects([row.thumbnail, ...moduleRows.map((m) => m.videoUrl)]);
    },

    async publish(id: string): Promise<Course> {
      const row = await repo.publish(id);
      if (!row) {
        if (!(await repo.findById(id))) throw courseNotFound();
        throw publishNeedsModules();
      }
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
      await deps.onModulesChanged(courseId);
      await releaseObjects([removed.videoUrl]);
    },

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
  if (body.creditHours !== undefined) values.creditHours = body.creditHours;
  if (body.creditType !== undefined) values.creditType = body.creditType;
  if (body.accreditingBody !== undefined) values.accreditingBody = body.accreditingBody;
  if (body.providerNumber !== undefined) values.providerNumber = body.providerNumber;
  return values;
}

export type CoursesService = ReturnType<typeof createCoursesService>;
