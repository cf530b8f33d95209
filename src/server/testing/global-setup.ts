import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../db/client";
import { prepareApiStatusRecording } from "./api-statuses";
import { createScratchDatabase } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (tar) that each test file loads instead of initdb. */
    pgliteTemplate: string | null;
    /** A migrated PostgreSQL database that each test file copies with CREATE DATABASE … TEMPLATE. */
    postgresTemplate: string | null;
  }
}

/**
 * Migrates one database per run and hands it to every test file as a template: a file then
 * starts from a copy instead of creating a cluster and running every migration again.
 */
export default async function setup(project: TestProject) {
  prepareApiStatusRecording();
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = await createScratchDatabase(serverUrl, "credo_template");
    // Two connections: one holds the migration lock while the other migrates.
    const handle = await openPostgres(template.url, { poolSize: 2 });
    await handle.close();
    project.provide("pgliteTemplate", null);
    project.provide("postgresTemplate", new URL(template.url).pathname.slice(1));
    return () => template.drop();
  }
  const handle = await openPglite(null);
  const dump = await handle.pglite.dumpDataDir("none");
  await handle.close();
  const dir = mkdtempSync(join(tmpdir(), "credo-template-"));
  const file = join(dir, "pglite.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  project.provide("postgresTemplate", null);
  return () => rmSync(dir, { recursive: true, force: true });
}
