/**
 * `npx tsx scripts/bench/course-recompute.ts --database-url <postgres server url> [--enrollments N]`
 *
 * What a course edit costs its learners: seeds a scratch database on the server with one
 * published course of three modules and N enrollments (`npm run seed:scale`: 40% with no
 * module done, 40% with one or two, 20% completed), then removes the third module through the
 * courses service, as an administrator would. Every open enrollment is recomputed through the
 * completion gate, and those left with every module done complete with their certificates.
 * Prints the edit's time, the recompute's transactions and the longest of them (the longest
 * any learner's row stays locked), and drops the scratch database.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { readCommandLine } from "../command-line";

const USAGE = `Usage: npx tsx scripts/bench/course-recompute.ts --database-url <url> [options]
  --database-url <url>  a PostgreSQL server (a scratch database is made on it and dropped)
  --enrollments <n>     enrollments in the course (100000)`;

const { values, fail, positive } = readCommandLine("course-recompute", USAGE, {
  "database-url": { type: "string" },
  enrollments: { type: "string", default: "100000" },
});
const serverUrl = values["database-url"] ?? fail("--database-url is required");
const enrollmentCount = positive(values.enrollments, "enrollments");

const pg = (await import("pg")).default;
const { count: countRows, eq, lt } = await import("drizzle-orm");
const schema = await import("../../src/server/db/schema");
const { openPostgres } = await import("../../src/server/db/client");
const { createEvents } = await import("../../src/server/lib/events");
const { createAuditService } = await import("../../src/server/platform/audit/audit.service");
const { createObjectsService } = await import("../../src/server/platform/objects/objects.service");
const { createOrganisationService } = await import(
  "../../src/server/platform/organisation/organisation.service"
);
const { createCoursesService } = await import("../../src/server/catalogue/courses/courses.service");
const { createCreditCatalogueService } = await import(
  "../../src/server/catalogue/courses/credit-catalogue.service"
);
const { createPackagesService } = await import(
  "../../src/server/catalogue/packages/packages.service"
);
const { createCertificatesService } = await import(
  "../../src/server/credit/certificates/certificates.service"
);
const { createEnrollmentsService } = await import(
  "../../src/server/learning/enrollments/enrollments.service"
);
const { createAuthRepository } = await import("../../src/server/people/auth/auth.repository");
const { createLocalDiskStore } = await import("../../src/server/storage/local-disk");
const { completionSteps } = await import("../../src/server/app");

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const name = `credo_recompute_${randomBytes(4).toString("hex")}`;
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const dataDir = mkdtempSync(join(tmpdir(), "credo-recompute-"));
await admin(`create database ${name}`);
try {
  const seeded = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/seed-scale.ts",
      "--learners",
      String(enrollmentCount),
      "--courses",
      "1",
      "--modules",
      "3",
      "--enrollments",
      String(enrollmentCount),
    ],
    { stdio: "inherit", env: { ...process.env, DATABASE_URL: url.toString(), DATA_DIR: dataDir } },
  );
  if (seeded.status !== 0) throw new Error("seeding failed");

  const database = await openPostgres(url.toString(), { poolSize: 5 });
  const { db } = database;
  // Every transaction timed: a recompute's page holds its learners' rows for that long.
  const spans: number[] = [];
  const transaction = db.transaction.bind(db);
  db.transaction = (async (work: Parameters<typeof transaction>[0]) => {
    const started = performance.now();
    try {
      return await transaction(work);
    } finally {
      spans.push(performance.now() - started);
    }
  }) as typeof db.transaction;

  const events = createEvents();
  const audit = createAuditService({ db });
  const store = createLocalDiskStore(join(dataDir, "objects"));
  const objects = createObjectsService({ db, store });
  const organisation = createOrganisationService({ db, objects, productName: "Credo" });
  const authRepo = createAuthRepository(db);
  const users = {
    findUser: (id: string) => authRepo.findUserById(id),
    findUsers: (ids: string[]) => authRepo.findUsersByIds([...new Set(ids)]),
  };
  const courses = createCoursesService({
    db,
    objects,
    events,
    audit,
    creditCatalogue: createCreditCatalogueService({ db, events, audit }),
    packages: createPackagesService({ db, store, objects }),
  });
  const enrollments = createEnrollmentsService({
    db,
    courses,
    users,
    audit,
    steps: completionSteps,
    events,
  });
  // Issues each completion's certificate in its transaction, as the portal does.
  createCertificatesService({
    db,
    audit,
    organisation,
    publicUrl: "http://localhost:5000",
    enrollments,
    users,
    events,
  });

  const count = async (table: PgTable, where?: SQL) =>
    (await db.select({ n: countRows() }).from(table).where(where))[0]!.n;
  const completed = () => count(schema.enrollments, eq(schema.enrollments.isCompleted, true));
  const completedBefore = await completed();
  const [lastModule] = (await courses.moduleIds("course-1")).slice(-1);
  spans.length = 0;
  const started = performance.now();
  await courses.removeModule("course-1", lastModule!, null);
  const took = performance.now() - started;
  const completedAfter = await completed();
  const issued = await count(schema.certificates);
  const { completionRecomputes: recomputes } = schema;
  const pending = await count(recomputes, lt(recomputes.recomputed, recomputes.requests));
  spans.sort((a, b) => b - a);
  console.log(
    [
      `Removed a module of a course with ${enrollmentCount.toLocaleString()} enrollments in ${(took / 1000).toFixed(1)} s.`,
      `  completed: ${completedBefore.toLocaleString()} before, ${completedAfter.toLocaleString()} after; certificates issued: ${issued.toLocaleString()}; recomputes left: ${pending}`,
      `  transactions: ${spans.length}; longest ${spans[0]?.toFixed(0)} ms, median ${spans[Math.floor(spans.length / 2)]?.toFixed(0)} ms`,
    ].join("\n"),
  );
  audit.stop();
  await database.close();
} finally {
  await admin(`drop database if exists ${name} with (force)`);
  rmSync(dataDir, { recursive: true, force: true });
}
