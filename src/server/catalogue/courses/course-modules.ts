import type { Course, ModuleEditBody, ModuleRequestBody } from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { Events } from "../../lib/events";
import type { Actor, AuditEventInput } from "../../platform";
import type { CourseContent } from "./course-content";
import { courseEvent, moduleChanges } from "./course-events";
import {
  courseNotFound,
  moduleChanged,
  moduleIdRetired,
  moduleIdTaken,
  moduleNotFound,
  orderNotModules,
  publishedNeedsModules,
} from "./courses.errors";
import { toModule } from "./courses.mapper";
import { type CoursesRepository, createCoursesRepository } from "./courses.repository";
import type { CourseRow, ModuleRow } from "./courses.table";

/**
 * A course's modules as administrators edit them: added, edited, reordered and removed, each
 * in a transaction that locks the course, records its audit event and tells the features
 * that judge completion (course.rules-changed) when what completes the course changed.
 */
export function createModuleEdits({
  db,
  events,
  repo,
  content,
  record,
  changed,
  withModules,
}: {
  db: Database;
  events: Pick<Events, "transaction">;
  repo: Pick<CoursesRepository, "findById" | "modulesOf">;
  content: CourseContent;
  /** Writes the edit's audit events in its transaction. */
  record(tx: Executor, list: AuditEventInput[]): Promise<void>;
  /** After the edit committed: drops the course from the catalogue cache. */
  changed(courseId: string): void;
  /** The course as answered, with its modules. */
  withModules(rows: CourseRow[]): Promise<Course[]>;
}) {
  const { packagesOf, releaseObjects, releasePackages, moduleContent } = content;

  return {
    /**
     * Puts the modules in the given order, which must name every module of the course once.
     * Completions are per module, so learners keep them; which module is open next follows
     * the new order (SPEC section 4, module access).
     */
    async reorderModules(courseId: string, moduleIds: string[], actor: Actor): Promise<Course> {
      const row = await events.transaction(db, async (tx, publish) => {
        const txRepo = createCoursesRepository(tx);
        const course = await txRepo.lockById(courseId);
        if (!course) throw courseNotFound();
        const modules = await txRepo.modulesOf([courseId]);
        const current = modules.map((m) => m.id);
        const problem = orderProblem(current, moduleIds);
        if (problem) throw orderNotModules(problem);
        await txRepo.setModuleOrder(courseId, moduleIds);
        if (current.join("\n") !== moduleIds.join("\n")) {
          const titles = new Map(modules.map((m) => [m.id, m.title]));
          await record(tx, [
            courseEvent("course.modules_reordered", actor, course, {
              from: current,
              to: moduleIds,
              titles: moduleIds.map((id) => titles.get(id) ?? id),
            }),
          ]);
          await publish("course.rules-changed", { courseId });
        }
        return course;
      });
      changed(courseId);
      const [course] = await withModules([row]);
      return course!;
    },

    /**
     * Appends a module at the end of the course: a video module, or a package module whose
     * package is checked and unpacked first (a package refused leaves nothing behind).
     */
    async addModule(courseId: string, body: ModuleRequestBody, actor: Actor) {
      // Before any package is unpacked: a course that is not there needs no package.
      if (!(await repo.findById(courseId))) throw courseNotFound();
      const content = await moduleContent(body);
      let row: ModuleRow;
      try {
        row = await events.transaction(db, async (tx, publish) => {
          const txRepo = createCoursesRepository(tx);
          const course = await txRepo.lockById(courseId);
          if (!course) throw courseNotFound();
          if (await txRepo.isRetiredModuleId(courseId, body.id)) throw moduleIdRetired();
          const inserted = await txRepo.insertModule({
            courseId,
            id: body.id,
            position: await txRepo.nextPosition(courseId),
            title: body.title,
            description: body.description || null,
            duration: body.duration,
            ...content.values,
          });
          if (!inserted) throw moduleIdTaken();
          await record(tx, [
            courseEvent(
              "module.added",
              actor,
              course,
              {
                moduleTitle: inserted.title,
                duration: inserted.duration,
                position: inserted.position,
                ...(inserted.kind === "video" ? {} : { kind: inserted.kind }),
              },
              inserted.id,
            ),
          ]);
          await publish("course.rules-changed", { courseId });
          return inserted;
        });
      } catch (err) {
        await releasePackages([content.created ?? null]);
        throw err;
      }
      changed(courseId);
      return toModule(row, await packagesOf([row]));
    },

    /**
     * Edits a module; its content may change kind (a video for a package or back). What the
     * module no longer plays is deleted once nothing else uses it.
     */
    async updateModule(courseId: string, moduleId: string, body: ModuleEditBody, actor: Actor) {
      const found = (await repo.modulesOf([courseId])).find((m) => m.id === moduleId);
      if (!found) {
        if (!(await repo.findById(courseId))) throw courseNotFound();
        throw moduleNotFound();
      }
      // Checked before the transaction: the objects and packages features work outside it.
      const content = await moduleContent(body, found);
      let before: ModuleRow;
      let row: ModuleRow;
      try {
        ({ before, row } = await events.transaction(db, async (tx, publish) => {
          const txRepo = createCoursesRepository(tx);
          const course = await txRepo.lockById(courseId);
          if (!course) throw courseNotFound();
          const current = (await txRepo.modulesOf([courseId])).find((m) => m.id === moduleId);
          if (!current) throw moduleNotFound();
          // The content was settled against the module as read before the lock. An edit that
          // replaced it since has deleted what it no longer plays, which this one could keep.
          if (current.videoUrl !== found.videoUrl || current.packageId !== found.packageId) {
            throw moduleChanged();
          }
          const updated = (await txRepo.updateModule(courseId, moduleId, {
            title: body.title,
            description: body.description || null,
            duration: body.duration,
            ...content.values,
          }))!;
          const changes = moduleChanges(current, updated);
          if (changes.length) {
            await record(tx, [
              courseEvent(
                "module.updated",
                actor,
                course,
                { moduleTitle: updated.title, changes },
                moduleId,
              ),
            ]);
          }
          // A module that changes what it plays changes what completing it means.
          if (current.kind !== updated.kind) {
            await publish("course.rules-changed", { courseId });
          }
          return { before: current, row: updated };
        }));
      } catch (err) {
        await releasePackages([content.created ?? null]);
        throw err;
      }
      changed(courseId);
      if (before.videoUrl !== row.videoUrl) await releaseObjects([before.videoUrl]);
      if (before.packageId !== row.packageId) await releasePackages([before.packageId]);
      return toModule(row, await packagesOf([row]));
    },

    async removeModule(courseId: string, moduleId: string, actor: Actor): Promise<void> {
      const removed = await events.transaction(db, async (tx, publish) => {
        const txRepo = createCoursesRepository(tx);
        const course = await txRepo.lockById(courseId);
        if (!course) throw courseNotFound();
        const row = await txRepo.deleteModule(courseId, moduleId);
        if (!row) throw moduleNotFound();
        if (course.isPublished && (await txRepo.countModules(courseId)) === 0) {
          throw publishedNeedsModules();
        }
        await record(tx, [
          courseEvent("module.removed", actor, course, { moduleTitle: row.title }, moduleId),
        ]);
        await publish("course.rules-changed", { courseId });
        return row;
      });
      changed(courseId);
      await releaseObjects([removed.videoUrl]);
      await releasePackages([removed.packageId]);
    },
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
