/**
 * `npm run seed:scale -- --learners 100000 --courses 1000 --modules 10 --enrollments 1000000`
 *
 * Fills a database (DATABASE_URL, or the embedded database in DATA_DIR) through the same schema and
 * migrations, with set-based INSERT ... SELECT generate_series batches run inside the
 * database. Completions are consistent with progress: an enrollment with c of m modules
 * done has exactly c module_completions rows (its first c modules) and progress round(c/m*100).
 *
 * It replaces everything in the database. A database holding anyone but an earlier seed's
 * people (addresses @scale.test) is left alone unless --replace is given.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { readCommandLine } from "./command-line";

export const SCALE_PASSWORD = "scale-pass-123";
export const SCALE_ADMIN = "admin@scale.test";
const VIDEO_ID = "scaleSampleVideo00000001";

const USAGE = `Usage: npm run seed:scale -- [options]

Fills DATABASE_URL (or the embedded database in DATA_DIR) with scale data, replacing what it holds.

  --learners N      learners to create (default 100000)
  --courses N       published courses (default 1000)
  --modules N       modules per course (default 10)
  --enrollments N   enrollments, spread evenly over the learners (default 1000000)
  --batch N         rows per INSERT batch (default 50000)
  --replace         replace a database that holds more than an earlier scale seed
  --help            show this text`;

const { values, fail, positive } = readCommandLine("seed:scale", USAGE, {
  learners: { type: "string", default: "100000" },
  courses: { type: "string", default: "1000" },
  modules: { type: "string", default: "10" },
  enrollments: { type: "string", default: "1000000" },
  batch: { type: "string", default: "50000" },
  replace: { type: "boolean", default: false },
});
const learners = positive(values.learners, "learners");
const courseCount = positive(values.courses, "courses");
const modulesPerCourse = positive(values.modules, "modules");
const enrollmentCount = positive(values.enrollments, "enrollments");
const batch = positive(values.batch, "batch");
const perLearner = Math.ceil(enrollmentCount / learners);
if (perLearner > courseCount) fail("--enrollments must be at most learners × courses");
const { sql } = await import("drizzle-orm");
const { buildConfig } = await import("../src/server/config");
const { openDatabase } = await import("../src/server/db/client");
const { createPasswordHasher } = await import("../src/server/people/auth/passwords");
const { createLocalDiskStore } = await import("../src/server/storage/local-disk");
const { createS3Store } = await import("../src/server/storage/s3");

function bar(label: string, done: number, total: number, started: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `\r  ${label.padEnd(18)} [${"█".repeat(filled)}${"░".repeat(width - filled)}] ${done.toLocaleString()}/${total.toLocaleString()} ${secs}s`,
  );
  if (done >= total) process.stdout.write("\n");
}

async function main() {
  const config = buildConfig();
  const started = Date.now();
  console.log(
    `Seeding ${learners.toLocaleString()} learners, ${courseCount.toLocaleString()} courses × ${modulesPerCourse} modules, ${enrollmentCount.toLocaleString()} enrollments into ${config.databaseUrl ? "PostgreSQL" : `the embedded database (${config.dataDir})`}`,
  );
  const database = await openDatabase(config);
  const { db } = database;
  const exec = (q: ReturnType<typeof sql>) => db.execute(q);
  try {
    // Never wipe real people by accident: only an earlier seed may be replaced silently.
    const counted = (await exec(
      sql`select count(*)::int as n from users where email not like '%@scale.test'`,
    )) as unknown as { rows: { n: number }[] };
    const others = counted.rows[0];
    if (others && others.n > 0 && !values.replace) {
      console.error(
        `seed:scale: the database holds ${others.n.toLocaleString()} ${others.n === 1 ? "account" : "accounts"} besides an earlier scale seed. Seeding replaces everything in it; run again with --replace to confirm.`,
      );
      process.exitCode = 2;
      return;
    }
    await exec(
      sql`truncate users, courses, objects, enrollments, module_completions, sessions, auth_tokens, login_failures cascade`,
    );
    const hash = await createPasswordHasher().hash(SCALE_PASSWORD);

    // One real, playable video shared by every module.
    const video = readFileSync(new URL("../test-fixtures/sample-video.mp4", import.meta.url));
    const store = config.s3
      ? createS3Store(config.s3)
      : createLocalDiskStore(join(config.dataDir, "objects"));
    await store.write(VIDEO_ID, Readable.from([video]), {
      maxBytes: video.length,
      contentType: "video/mp4",
    });
    await exec(sql`insert into objects (id, kind, file_name, declared_type, declared_size, content_type, size, status)
      values (${VIDEO_ID}, 'video', 'sample.mp4', 'video/mp4', ${video.length}, 'video/mp4', ${video.length}, 'ready')`);

    await exec(sql`insert into users (id, name, email, role, status, password_hash, is_registered_by_admin, password_setup)
      values ('scale-admin', 'Scale Admin', ${SCALE_ADMIN}, 'admin', 'active', ${hash}, true, true)`);

    let t = Date.now();
    for (let from = 1; from <= learners; from += batch) {
      const to = Math.min(learners, from + batch - 1);
      await exec(sql`insert into users (id, name, email, phone, role, status, password_hash, is_registered_by_admin, password_setup, created_at)
        select 'learner-' || i, 'Learner ' || i, 'learner' || i || '@scale.test', '+1 555 ' || lpad((i % 10000)::text, 4, '0'),
          'learner', case when i % 50 = 0 then 'restricted' else 'active' end, ${hash}, true, true,
          now() - (i || ' seconds')::interval
        from generate_series(${from}::int, ${to}::int) as i`);
      bar("learners", to, learners, t);
    }

    t = Date.now();
    const categories = sql`(array['Development','Database','Mobile','Design'])[1 + i % 4]`;
    await exec(sql`insert into courses (id, title, description, category, duration, created_by, is_published, created_at)
      select 'course-' || i, 'Course ' || i, 'A scale-test course.', ${categories}, 1 + i % 12, 'scale-admin', true,
        now() - (i || ' minutes')::interval
      from generate_series(1, ${courseCount}::int) as i`);
    await exec(sql`insert into modules (course_id, id, position, title, duration, video_url)
      select 'course-' || c, 'module_' || (1700000000000 + c * 1000 + m), m, 'Module ' || m, 10, ${`/objects/uploads/${VIDEO_ID}`}
      from generate_series(1, ${courseCount}::int) as c, generate_series(1, ${modulesPerCourse}::int) as m`);
    bar("courses+modules", courseCount, courseCount, t);

    // Enrollment e (0-based) belongs to learner 1 + e / perLearner, course distinct per learner.
    // done = modules completed: 40% none, 40% some, 20% all (deterministic per enrollment).
    t = Date.now();
    const M = modulesPerCourse;
    for (let from = 0; from < enrollmentCount; from += batch) {
      const to = Math.min(enrollmentCount, from + batch) - 1;
      await exec(sql`with src as (
          select e, 1 + e / ${perLearner}::int as l, e % ${perLearner}::int as k,
            case when (e::bigint * 7919) % 10 < 4 then 0 when (e::bigint * 7919) % 10 < 8 then 1 + (e::bigint * 31) % greatest(${M}::int - 1, 1) else ${M}::int end as done
          from generate_series(${from}::int, ${to}::int) as e)
        insert into enrollments (id, user_id, course_id, progress, is_completed, completed_at, created_at)
        select 'enr-' || e, 'learner-' || l, 'course-' || (1 + (l * 7 + k * 97) % ${courseCount}::int),
          round(100.0 * least(done, ${M}::int) / ${M}::int)::int, done >= ${M}::int,
          case when done >= ${M}::int then now() - ((e % 100000) || ' seconds')::interval end,
          now() - ((e % 500000) || ' seconds')::interval
        from src where l <= ${learners}::int`);
      await exec(sql`insert into module_completions (enrollment_id, module_id, completed_at)
        select en.id, 'module_' || (1700000000000 + substring(en.course_id from 8)::int * 1000 + m), now() - (m || ' hours')::interval
        from enrollments en, generate_series(1, ${M}::int) as m
        where en.id in (select 'enr-' || e from generate_series(${from}::int, ${to}::int) as e)
          and m <= round(en.progress * ${M}::numeric / 100)`);
      bar("enrollments", to + 1, enrollmentCount, t);
    }
    t = Date.now();
    // VACUUM too: it sets the visibility map, so index-only scans read no heap pages even
    // where autovacuum is off or has not caught up yet (`npm run bench`).
    process.stdout.write("  vacuum analyze     ...");
    await exec(sql`vacuum analyze`);
    process.stdout.write(` ${((Date.now() - t) / 1000).toFixed(1)}s\n`);
    console.log(
      `Done in ${((Date.now() - started) / 1000).toFixed(1)}s. Sign in as ${SCALE_ADMIN} or learner1@scale.test with password ${SCALE_PASSWORD}.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? `${err.message}\n${String(err.cause ?? "")}` : err);
  process.exit(1);
});
