/**
 * Benchmark fixtures in an already-seeded database (`npm run seed:scale`): the 500 MB video
 * object, the pool of learners the load uses, their enrollments and remaining modules, deep
 * keyset cursors, and an exact snapshot so `restore` puts the database back as it was
 * (progress calls complete modules, heartbeats record watching, the exam scenario makes a
 * course and attempts; the scale data must stay what the seed made).
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { type SQL, sql } from "drizzle-orm";
import { openDatabase } from "../../src/server/db/client";
import { encodeCursor } from "../../src/server/db/cursor";
import { hashSecret, newSecret } from "../../src/server/people/auth/tokens";
import { EXAM_COURSE_TITLE } from "./exam";

/** An object id as the server makes them (24 characters of base64url). */
export const BENCH_VIDEO_ID = "benchVideo500MB000000001";
export const BENCH_VIDEO_BYTES = 500 * 1024 * 1024;
export const SCALE_PASSWORD = "scale-pass-123";
export const SCALE_ADMIN = "admin@scale.test";
/**
 * How the heartbeat route's limit names a session's counter in `rate_limits` (route, then
 * `watch:` and the session's hash: watching.routes.ts, plugins/rate-limit-store.ts).
 */
const HEARTBEAT_LIMIT_KEY = "POST/api/progress/heartbeat:watch:";

type Db = Awaited<ReturnType<typeof openDatabase>>;

async function rows<T>(handle: Db, query: SQL): Promise<T[]> {
  const result = (await handle.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const list = (values: string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Columns of an enrollment `e`: its course's modules not yet complete, in unlock order, and
 * their stated minutes.
 */
const remainingModules = (ids: string, minutes: string) => {
  const of = (column: string, name: string) =>
    sql.raw(`array(select m.${column} from modules m where m.course_id = e.course_id
            and not exists (select 1 from module_completions mc
              where mc.enrollment_id = e.id and mc.module_id = m.id)
            order by m.position, m.created_at) as ${name}`);
  return sql`${of("id", ids)}, ${of("duration", minutes)}`;
};

/** Any number of values as one parameter (a crowd's ids exceed a statement's parameter limit). */
const anyOf = (values: string[]) =>
  sql`select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)`;

/**
 * A 500 MB file that is a valid MP4: the fixture video followed by one `free` box of zeros
 * (players skip it; file-type still sniffs video/mp4 from the leading `ftyp` box).
 */
export function ensureVideoFile(objectsDir: string, fixture: string): string {
  mkdirSync(objectsDir, { recursive: true });
  const path = join(objectsDir, BENCH_VIDEO_ID);
  if (existsSync(path) && statSync(path).size === BENCH_VIDEO_BYTES) return path;
  const head = readFileSync(fixture);
  const padding = BENCH_VIDEO_BYTES - head.length;
  const box = Buffer.alloc(8);
  box.writeUInt32BE(padding, 0);
  box.write("free", 4, "latin1");
  const fd = openSync(path, "w");
  try {
    writeSync(fd, head);
    writeSync(fd, box);
    const chunk = Buffer.alloc(8 * 1024 * 1024);
    for (let left = padding - box.length; left > 0; left -= chunk.length) {
      writeSync(fd, chunk, 0, Math.min(chunk.length, left));
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

interface PoolLearner {
  id: string;
  email: string;
  /** Published courses the learner is enrolled in. */
  courseIds: string[];
}

interface RemainingModules {
  userId: string;
  courseId: string;
  modules: string[];
  /** Each remaining module's stated duration in whole minutes (what a video must fit). */
  minutes: number[];
}

interface EnrollmentSnapshot {
  id: string;
  progress: number;
  is_completed: boolean;
  completed_at: string | null;
  updated_at: string;
}

export interface Fixtures {
  counts: { learners: number; courses: number; modules: number; enrollments: number };
  pool: PoolLearner[];
  remaining: RemainingModules[];
  learnerCursors: string[];
  enrollmentCursors: string[];
  searchTerms: string[];
  /** Searches of the same kinds, thousands of them, so that few repeat within a scenario. */
  freshSearchTerms: string[];
  videoModule: { courseId: string; moduleId: string; previousUrl: string };
  /** Everything restore() needs. */
  snapshot: {
    startedAt: string;
    enrollments: EnrollmentSnapshot[];
    userIds: string[];
    /** The pool's watching records and watch clocks as they were (rows as JSON). */
    moduleWatch: unknown[];
    watchClocks: unknown[];
  };
}

/**
 * Deletes the exam scenario's course (exam.ts), its enrollments and its attempts. Attempts
 * are a record of credit that a trigger keeps from ever being deleted; these are the
 * benchmark's own, in a course that exists only for the run, so they go with it. The
 * trigger is off only inside this transaction, whose lock on the table keeps every other
 * session from writing attempts meanwhile.
 */
async function removeExamCourses(handle: Db): Promise<void> {
  const found = await rows<{ id: string }>(
    handle,
    sql`select c.id from courses c join users u on u.id = c.created_by
      where c.title = ${EXAM_COURSE_TITLE} and u.email = ${SCALE_ADMIN}`,
  );
  if (!found.length) return;
  const ids = list(found.map((c) => c.id));
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`alter table exam_attempts disable trigger exam_attempts_no_change`);
    await tx.execute(sql`delete from exam_attempts where course_id in (${ids})`);
    await tx.execute(sql`alter table exam_attempts enable trigger exam_attempts_no_change`);
    await tx.execute(sql`delete from courses where id in (${ids})`);
  });
}

/** Deep keyset cursors, at evenly spread depths of a newest-first list. */
async function cursorsAt(handle: Db, table: "users" | "enrollments", total: number, n: number) {
  const where = table === "users" ? sql`where role = 'learner'` : sql``;
  const out: string[] = [];
  for (let i = 1; i <= n; i++) {
    const offset = Math.floor((total * i) / (n + 1));
    const [row] = await rows<{ cursor_at: string; id: string }>(
      handle,
      sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at, id
        from ${sql.raw(table)} ${where} order by created_at desc, id desc offset ${offset} limit 1`,
    );
    if (row) out.push(encodeCursor({ cursorAt: row.cursor_at, id: row.id }));
  }
  return out;
}

export async function prepare(
  config: { databaseUrl?: string; dataDir: string },
  options: { poolSize: number },
): Promise<Fixtures> {
  const handle = await openDatabase(config);
  try {
    const [counts] = await rows<Fixtures["counts"]>(
      handle,
      sql`select (select count(*)::int from users where role = 'learner') as learners,
        (select count(*)::int from courses) as courses,
        (select count(*)::int from modules) as modules,
        (select count(*)::int from enrollments) as enrollments`,
    );
    if (!counts || counts.enrollments === 0) {
      throw new Error("The database has no enrollments: seed it with `npm run seed:scale` first.");
    }
    const [admin] = await rows<{ id: string }>(
      handle,
      sql`select id from users where email = ${SCALE_ADMIN}`,
    );
    if (!admin) throw new Error(`${SCALE_ADMIN} is missing: seed with \`npm run seed:scale\`.`);
    // A previous run stopped before restoring left its exam course (and its enrollments).
    await removeExamCourses(handle);

    // Learners with unfinished enrollments, spread over the table (md5 order is stable).
    const pool = await rows<{ id: string; email: string }>(
      handle,
      sql`select u.id, u.email from users u
        where u.role = 'learner' and u.status = 'active' and u.password_hash is not null
          and exists (select 1 from enrollments e where e.user_id = u.id and not e.is_completed)
        order by md5(u.id) limit ${options.poolSize}`,
    );
    const ids = pool.map((p) => p.id);
    const enrollments = await rows<
      EnrollmentSnapshot & {
        user_id: string;
        course_id: string;
        is_published: boolean;
        remaining: string[];
        remaining_minutes: number[];
      }
    >(
      handle,
      sql`select e.id, e.user_id, e.course_id, e.progress, e.is_completed,
          to_char(e.completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as completed_at,
          to_char(e.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at,
          c.is_published,
          ${remainingModules("remaining", "remaining_minutes")}
        from enrollments e join courses c on c.id = e.course_id
        where e.user_id in (${list(ids)}) order by e.user_id, e.created_at`,
    );
    const byUser = new Map<string, string[]>();
    for (const e of enrollments) {
      if (e.is_published) byUser.set(e.user_id, [...(byUser.get(e.user_id) ?? []), e.course_id]);
    }
    const remaining = enrollments
      .filter((e) => e.is_published && !e.is_completed && e.remaining.length > 0)
      .map((e) => ({
        userId: e.user_id,
        courseId: e.course_id,
        modules: e.remaining,
        minutes: e.remaining_minutes,
      }));
    // Heartbeats write the pool's watching records and clocks: kept whole to put back.
    const moduleWatch = await rows<{ row: unknown }>(
      handle,
      sql`select to_jsonb(w) as row from module_watch w where w.user_id in (${list(ids)})`,
    );
    const watchClocks = await rows<{ row: unknown }>(
      handle,
      sql`select to_jsonb(c) as row from watch_clocks c where c.user_id in (${list(ids)})`,
    );

    // Searches an administrator would type: part of a name, of an email, a rare and a common term.
    const sample = pool.slice(0, 24);
    const searchTerms = [
      ...sample.slice(0, 8).map((p) => p.email.split("@")[0]!),
      ...sample.slice(8, 16).map((p) => p.email.split("@")[0]!.slice(0, -1)),
      ...sample.slice(16, 24).map((p) => p.email.slice(p.email.indexOf("@") - 3)),
      "nobody-matches-this",
      "scale.test",
    ];
    // The same kinds of term, each asked once in a run: searches no cache has seen.
    const others = await rows<{ email: string }>(
      handle,
      sql`select email from users where role = 'learner' order by md5(id || 'search') limit 12000`,
    );
    const freshSearchTerms = [
      ...new Set(
        others.flatMap(({ email }, i) => {
          const local = email.split("@")[0]!;
          const term = [local, local.slice(0, -1), email.slice(email.indexOf("@") - 4)][i % 3]!;
          return i % 2 ? [term.toUpperCase()] : [term];
        }),
      ),
    ].filter((term) => !searchTerms.includes(term));

    const [videoModule] = await rows<{ course_id: string; id: string; video_url: string }>(
      handle,
      sql`select m.course_id, m.id, m.video_url from modules m join courses c on c.id = m.course_id
        where c.is_published order by c.created_at desc, c.id desc, m.position limit 1`,
    );
    if (!videoModule) throw new Error("No published course with a module.");
    const videoPath = `/objects/uploads/${BENCH_VIDEO_ID}`;
    await handle.db.execute(sql`insert into objects
        (id, kind, file_name, declared_type, declared_size, content_type, size, status, owner_id)
      values (${BENCH_VIDEO_ID}, 'video', 'bench-500mb.mp4', 'video/mp4', ${BENCH_VIDEO_BYTES},
        'video/mp4', ${BENCH_VIDEO_BYTES}, 'ready', ${admin.id})
      on conflict (id) do update set status = 'ready', size = excluded.size`);
    // A previous run stopped before restoring left the bench video attached: keep the original.
    const previousUrl =
      videoModule.video_url === videoPath
        ? ((
            await rows<{ video_url: string }>(
              handle,
              sql`select video_url from modules where video_url <> ${videoPath} limit 1`,
            )
          )[0]?.video_url ?? videoPath)
        : videoModule.video_url;
    await handle.db.execute(
      sql`update modules set video_url = ${videoPath}
        where course_id = ${videoModule.course_id} and id = ${videoModule.id}`,
    );

    const [now] = await rows<{ now: string }>(
      handle,
      sql`select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as now`,
    );
    return {
      counts,
      pool: pool.map((p) => ({ ...p, courseIds: byUser.get(p.id) ?? [] })),
      remaining,
      learnerCursors: await cursorsAt(handle, "users", counts.learners, 8),
      enrollmentCursors: await cursorsAt(handle, "enrollments", counts.enrollments, 8),
      searchTerms,
      freshSearchTerms,
      videoModule: { courseId: videoModule.course_id, moduleId: videoModule.id, previousUrl },
      snapshot: {
        startedAt: now!.now,
        enrollments: enrollments.map(
          ({ id, progress, is_completed, completed_at, updated_at }) => ({
            id,
            progress,
            is_completed,
            completed_at,
            updated_at,
          }),
        ),
        userIds: [...ids, admin.id],
        moduleWatch: moduleWatch.map((r) => r.row),
        watchClocks: watchClocks.map((r) => r.row),
      },
    };
  } finally {
    await handle.close();
  }
}

/** A learner of the capacity scenario, with the session made for it. */
export interface CrowdMember {
  userId: string;
  /** The session cookie's value; the database holds only its hash, as for any session. */
  secret: string;
  courseId: string;
  modules: string[];
  minutes: number[];
}

/**
 * The capacity scenario's crowd: `size` learners outside the pool with an unfinished
 * enrollment in a published course, each given a session as signing in would make it
 * (signing in tens of thousands over HTTP would take longer than the run). Their sessions,
 * the enrollment they work through, and their watching records join the snapshot.
 */
export async function prepareCrowd(
  config: { databaseUrl?: string; dataDir: string },
  fixtures: Fixtures,
  size: number,
): Promise<CrowdMember[]> {
  const handle = await openDatabase(config);
  try {
    const pool = fixtures.pool.map((p) => p.id);
    const found = await rows<
      EnrollmentSnapshot & {
        user_id: string;
        course_id: string;
        remaining: string[];
        minutes: number[];
      }
    >(
      handle,
      sql`select distinct on (u.id) e.id, e.user_id, e.course_id, e.progress, e.is_completed,
          to_char(e.completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as completed_at,
          to_char(e.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at,
          ${remainingModules("remaining", "minutes")}
        from (select u.id from users u
          where u.role = 'learner' and u.status = 'active'
            and u.id not in (${anyOf(pool)})
          order by md5(u.id || 'crowd') limit ${Math.ceil(size * 1.2)}) u
        join enrollments e on e.user_id = u.id and not e.is_completed
        join courses c on c.id = e.course_id and c.is_published
        order by u.id, e.created_at`,
    );
    const picked = found.filter((e) => e.remaining.length > 0).slice(0, size);
    const members = picked.map((e) => ({
      userId: e.user_id,
      secret: newSecret(),
      courseId: e.course_id,
      modules: e.remaining,
      minutes: e.minutes,
    }));
    const users = members.map((m) => m.userId);
    await handle.db.execute(sql`insert into sessions (id_hash, user_id, expires_at, user_agent, ip)
      select s.id_hash, s.user_id, now() + interval '12 hours', 'credo-bench', '10.200.0.1'
      from jsonb_to_recordset(${JSON.stringify(
        members.map((m) => ({ id_hash: hashSecret(m.secret), user_id: m.userId })),
      )}::jsonb) as s(id_hash text, user_id text)`);
    for (const { id, progress, is_completed, completed_at, updated_at } of picked) {
      fixtures.snapshot.enrollments.push({ id, progress, is_completed, completed_at, updated_at });
    }
    fixtures.snapshot.userIds.push(...users);
    const watched = await rows<{ row: unknown }>(
      handle,
      sql`select to_jsonb(w) as row from module_watch w where w.user_id in (${anyOf(users)})`,
    );
    const clocks = await rows<{ row: unknown }>(
      handle,
      sql`select to_jsonb(c) as row from watch_clocks c where c.user_id in (${anyOf(users)})`,
    );
    fixtures.snapshot.moduleWatch.push(...watched.map((r) => r.row));
    fixtures.snapshot.watchClocks.push(...clocks.map((r) => r.row));
    return members;
  } finally {
    await handle.close();
  }
}

/**
 * Puts the database back: completions the run recorded are deleted, the pool's enrollments
 * get their exact previous values (course_stats triggers follow), the exam scenario's course
 * goes with its enrollments and attempts, the pool's watching records and clocks are exactly
 * as before, the run's sessions end with their heartbeat limit counters, the module plays
 * its own video again and the bench object row goes. Returns the number of completions
 * removed.
 */
export async function restore(
  config: { databaseUrl?: string; dataDir: string },
  fixtures: Fixtures,
): Promise<number> {
  const handle = await openDatabase(config);
  try {
    const { snapshot, videoModule } = fixtures;
    await removeExamCourses(handle);
    const enrollmentIds = snapshot.enrollments.map((e) => e.id);
    const removed = await rows<{ enrollment_id: string }>(
      handle,
      sql`delete from module_completions where enrollment_id in (${anyOf(enrollmentIds)})
        and completed_at >= ${snapshot.startedAt}::timestamptz returning enrollment_id`,
    );
    await handle.db.execute(sql`update enrollments e set progress = s.progress,
        is_completed = s.is_completed, completed_at = s.completed_at, updated_at = s.updated_at
      from jsonb_to_recordset(${JSON.stringify(snapshot.enrollments)}::jsonb)
        as s(id text, progress int, is_completed boolean, completed_at timestamptz, updated_at timestamptz)
      where e.id = s.id and (e.progress, e.is_completed, e.completed_at, e.updated_at)
        is distinct from (s.progress, s.is_completed, s.completed_at, s.updated_at)`);
    // What the learners watched during the run goes; what they had watched before comes back.
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`delete from module_watch where user_id in (${anyOf(snapshot.userIds)})`);
      await tx.execute(sql`delete from watch_clocks where user_id in (${anyOf(snapshot.userIds)})`);
      await tx.execute(sql`insert into module_watch
        select * from jsonb_populate_recordset(null::module_watch, ${JSON.stringify(snapshot.moduleWatch)}::jsonb)`);
      await tx.execute(sql`insert into watch_clocks
        select * from jsonb_populate_recordset(null::watch_clocks, ${JSON.stringify(snapshot.watchClocks)}::jsonb)`);
    });
    const runSessions = sql`select id_hash from sessions where user_id in (${anyOf(snapshot.userIds)})
        and created_at >= ${snapshot.startedAt}::timestamptz`;
    // Each session's heartbeat limit counter (keyed by the route and the session) goes with it.
    await handle.db.execute(sql`delete from rate_limits
      where key in (select ${HEARTBEAT_LIMIT_KEY} || id_hash from (${runSessions}) s)`);
    await handle.db.execute(sql`delete from sessions where id_hash in (${runSessions})`);
    await handle.db.execute(sql`update modules set video_url = ${videoModule.previousUrl}
        where course_id = ${videoModule.courseId} and id = ${videoModule.moduleId}`);
    await handle.db.execute(sql`delete from objects where id = ${BENCH_VIDEO_ID}`);
    // The rows rewritten above leave dead versions; vacuum them so the next run (and
    // index-only scans) find the tables as the seed left them, even with autovacuum off.
    for (const table of [
      "courses",
      "questions",
      "exam_attempts",
      "enrollments",
      "module_completions",
      "course_stats",
      "sessions",
      "module_watch",
      "watch_clocks",
      "rate_limits",
      "modules",
      "objects",
    ]) {
      await handle.db.execute(sql.raw(`vacuum (analyze) ${table}`));
    }
    return removed.length;
  } finally {
    await handle.close();
  }
}
