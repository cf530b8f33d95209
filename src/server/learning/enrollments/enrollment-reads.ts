import type { Course, EnrollmentWithRelations } from "../../../contract";
import type { ChangeFeed } from "../../db/change-feed";
import { decodeCursor, pageOf } from "../../db/cursor";
import { createReadCache } from "../../db/read-cache";
import type { UserRow } from "../../people";
import { toUser } from "../../people";
import type { createEnrollmentsRepository } from "./enrollments.repository";
import type { EnrollmentsServiceDeps } from "./enrollments.service";
import type { EnrollmentRow } from "./enrollments.table";

export interface EnrollmentReadsDeps extends Pick<EnrollmentsServiceDeps, "courses" | "users"> {
  repo: ReturnType<typeof createEnrollmentsRepository>;
  /** Keeps the caches exact across instances; without it nothing is cached. */
  changes?: ChangeFeed;
}

/** The answer for a learner with no enrollments, or none known. */
const EMPTY_LIST = Buffer.from("[]");

/**
 * Enrollments as they are read: a learner's own (the dashboard, the player's checks), one
 * with its course and learner, and the administrators' pages of every enrollment. The
 * answers read most are kept as made, and dropped when anything they show changes.
 */
export function createEnrollmentReads(deps: EnrollmentReadsDeps) {
  const { repo } = deps;
  type LearnerRow = Awaited<ReturnType<typeof repo.listByUserWithCompletions>>[number];
  /**
   * Each learner's enrollments with their completions, cached per learner. The
   * dashboard, the course page's enrollment check and the player read them on every visit;
   * they change only when this learner's enrollments or completions do, and every such change
   * is announced per learner (the statement triggers of migrations 0010 and 0012; the
   * enrollments service right after commit).
   * Writes never read from here: completing a module reads and locks the row in its
   * transaction.
   */
  const byLearner = deps.changes
    ? createReadCache<{ userId: string; rows: LearnerRow[] }>({
        feed: deps.changes,
        tables: ["enrollments"],
        tagsOf: (entry) => [`enrollments:${entry.userId}`],
        max: 50_000,
        ttlMs: 5 * 60_000,
      })
    : undefined;
  const enrollmentsOf = async (userId: string): Promise<LearnerRow[]> => {
    const load = async () => ({ userId, rows: await repo.listByUserWithCompletions(userId) });
    return ((await byLearner?.get(userId, load)) ?? (await load())).rows;
  };
  /**
   * Each learner's answer to GET /api/enrollments/user/{id}, as the UTF-8 bytes it is sent
   * as, made once per change like the catalogue's course JSON: a learner's dashboard is read
   * far more often than it changes, and building its ~23 KB from the parts cost more than
   * sending it (kept as text, it was encoded again for every answer). It is dropped with
   * anything it shows: the learner's enrollments or completions, the learner (name, email,
   * status) and each of the courses.
   */
  const answers = deps.changes
    ? createReadCache<{ userId: string; courseIds: string[]; json: Buffer }>({
        feed: deps.changes,
        tables: ["enrollments", "users", "courses"],
        tagsOf: (answer) => [
          `enrollments:${answer.userId}`,
          `users:${answer.userId}`,
          ...answer.courseIds.map((id) => `courses:${id}`),
        ],
        max: 20_000,
        // About 23 KB a learner with ten courses: a few thousand of the most recent learners.
        maxBytes: { total: 64 * 1024 * 1024, of: (answer) => answer.json.length },
        ttlMs: 5 * 60_000,
      })
    : undefined;
  /**
   * Pages of every enrollment (GET /api/enrollments) as answered, by size and cursor: each
   * is about 55 KB of JSON that the portal's thread would build again for every request. A
   * page is dropped when an enrollment is added or removed anywhere ('enrollments:+', which
   * moves pages), when any of its learners' enrollments or completions change, or one of its
   * learners or courses.
   */
  const pages = deps.changes
    ? createReadCache<{ json: string; nextCursor: string | null; tags: string[] }>({
        feed: deps.changes,
        tables: ["enrollments", "users", "courses"],
        tagsOf: (page) => page.tags,
        max: 500,
        maxBytes: { total: 16 * 1024 * 1024, of: (page) => page.json.length },
        ttlMs: 5 * 60_000,
      })
    : undefined;

  async function buildPage(limit: number, after: ReturnType<typeof decodeCursor>, q?: string) {
    const rows = await repo.page({ limit: limit + 1, after, q });
    const { items, nextCursor } = pageOf(rows, limit);
    const [completions, entries, users] = await Promise.all([
      repo.completedModuleIds(items.map((r) => r.id)),
      deps.courses.findEntries(items.map((r) => r.courseId)),
      deps.users.findUsers(items.map((r) => r.userId)),
    ]);
    const userJson = new Map(users.map((u) => [u.id, JSON.stringify(toUser(u))]));
    const json = items.map((row) => {
      const entry = entries.get(row.courseId)!;
      const completed = currentModules(entry.course, completions.get(row.id) ?? []);
      return enrollmentJson(
        enrollmentFields(row, completed),
        entry.json,
        userJson.get(row.userId)!,
      );
    });
    const tags = new Set(["enrollments:+"]);
    for (const row of items) {
      tags
        .add(`enrollments:${row.userId}`)
        .add(`users:${row.userId}`)
        .add(`courses:${row.courseId}`);
    }
    return { json: `[${json.join(",")}]`, nextCursor, tags: [...tags] };
  }

  /**
   * The user's enrollments, each with its own fields (completedModules counting only modules
   * still in the course) and its catalogue entry, and the user: in two round trips, none when
   * cached. Undefined for an unknown user.
   */
  async function forUser(userId: string, knownUser?: UserRow) {
    const [rows, user] = await Promise.all([
      enrollmentsOf(userId),
      knownUser?.id === userId ? knownUser : deps.users.findUser(userId),
    ]);
    if (!user) return undefined;
    const entries = await deps.courses.findEntries(rows.map((r) => r.courseId));
    const items = rows.map(({ completed, ...row }) => {
      const entry = entries.get(row.courseId)!;
      return { fields: enrollmentFields(row, currentModules(entry.course, completed)), entry };
    });
    return { user: toUser(user), items };
  }

  return {
    enrollmentsOf,

    /** An enrollment with its completed modules (still in the course), course and learner. */
    async one(row: EnrollmentRow): Promise<EnrollmentWithRelations> {
      const [completions, courses, user] = await Promise.all([
        repo.completedModuleIds([row.id]),
        deps.courses.findMany([row.courseId]),
        deps.users.findUser(row.userId),
      ]);
      const course = courses.get(row.courseId)!;
      return {
        ...enrollmentFields(row, currentModules(course, completions.get(row.id) ?? [])),
        course,
        user: toUser(user!),
      };
    },

    async listForUser(userId: string): Promise<EnrollmentWithRelations[]> {
      const found = await forUser(userId);
      if (!found) return [];
      return found.items.map(({ fields, entry }) => ({
        ...fields,
        course: entry.course,
        user: found.user,
      }));
    },

    /**
     * listForUser as JSON (UTF-8), for GET /api/enrollments/user/{id}: each course's
     * JSON is the catalogue's, made once, and the rest is small; the shape is the response
     * schema's by construction (json-answers.test.ts compares it with the schema).
     */
    async listForUserJson(userId: string, viewer?: UserRow): Promise<Buffer> {
      const load = async () => {
        // Cached, the learner is read with the rest (not taken from the viewer's session,
        // resolved earlier): an answer must not keep a name changed meanwhile.
        const found = await forUser(userId, answers ? undefined : viewer);
        // An unknown learner is not cached: the answer is the same and costs one lookup.
        if (!found) return undefined;
        const owner = JSON.stringify(found.user);
        const items = found.items.map(({ fields, entry }) =>
          enrollmentJson(fields, entry.json, owner),
        );
        return {
          userId,
          courseIds: found.items.map(({ fields }) => fields.courseId),
          json: Buffer.from(`[${items.join(",")}]`),
        };
      };
      const answer = answers ? await answers.get(userId, load) : await load();
      return answer?.json ?? EMPTY_LIST;
    },

    /**
     * A page of every enrollment as JSON text, for GET /api/enrollments, made like
     * listForUserJson: the zod serializer took a third of the portal's CPU on this page.
     */
    async pageJson(input: { limit: number; cursor?: string; q?: string }) {
      const after = decodeCursor(input.cursor);
      const q = input.q || undefined;
      const load = () => buildPage(input.limit, after, q);
      const key = JSON.stringify([input.limit, input.cursor ?? ""]);
      // A search is not kept: a learner renamed or a course retitled into it would not drop it.
      const cached = pages && !q ? await pages.get(key, load) : undefined;
      const page = cached ?? (await load());
      return { json: page.json, nextCursor: page.nextCursor };
    },
  };
}

/** Only the modules still in the course count (a removed module's completion stays stored). */
export function currentModules(course: Course, completed: string[]) {
  const current = new Set(course.modules.map((m) => m.id));
  return completed.filter((id) => current.has(id));
}

/** An enrollment with its relations as JSON text, from each part's own JSON. */
export const enrollmentJson = (
  fields: ReturnType<typeof enrollmentFields>,
  course: string,
  user: string,
) => `${JSON.stringify(fields).slice(0, -1)},"course":${course},"user":${user}}`;

/** An enrollment's own fields in the response schema's order (course and user follow). */
export function enrollmentFields(row: EnrollmentRow, completedModules: string[]) {
  return {
    id: row.id,
    userId: row.userId,
    courseId: row.courseId,
    progress: row.progress,
    completedModules,
    isCompleted: row.isCompleted,
    completedAt: row.completedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
